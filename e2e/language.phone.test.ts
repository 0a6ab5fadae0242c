import { language } from './suites/language.js';
import { viewports } from './support/env.js';

language(viewports[1]);

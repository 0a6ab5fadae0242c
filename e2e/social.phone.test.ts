import { social } from './suites/social.js';
import { viewports } from './support/env.js';

social(viewports[1]);

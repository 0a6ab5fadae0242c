import { advice } from './suites/advice.js';
import { viewports } from './support/env.js';

advice(viewports[0]);

import { twoStepSignIn } from './suites/second-factor.js';
import { viewports } from './support/env.js';

twoStepSignIn(viewports[0]);

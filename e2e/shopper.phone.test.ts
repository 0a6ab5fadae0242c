import { shopper } from './suites/shopper.js';
import { viewports } from './support/env.js';

shopper(viewports[1]);

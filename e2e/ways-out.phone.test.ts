import { waysOut } from './suites/ways-out.js';
import { viewports } from './support/env.js';

waysOut(viewports[1]);

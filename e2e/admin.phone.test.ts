import { shopOwner } from './suites/admin.js';
import { viewports } from './support/env.js';

shopOwner(viewports[1]);

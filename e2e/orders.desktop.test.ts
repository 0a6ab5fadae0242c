import { orders } from './suites/orders.js';
import { viewports } from './support/env.js';

orders(viewports[0]);

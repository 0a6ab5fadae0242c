import { paymentRoutes } from './suites/payment-routes.js';
import { viewports } from './support/env.js';

paymentRoutes(viewports[0]);

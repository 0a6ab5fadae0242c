import { journey } from './suites/journey.js';
import { viewports } from './support/env.js';

journey(viewports[1]);

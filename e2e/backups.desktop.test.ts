import { backupsTab } from './suites/backups.js';
import { viewports } from './support/env.js';

backupsTab(viewports[0]);

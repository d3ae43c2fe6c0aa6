import { afterAll } from 'vitest';
import { killLeftServers } from './process.js';

// Registered before the file's own hooks, so it runs after them (vitest runs after-hooks as a stack):
// what a file's cleanup did not stop, because a test timed out first, goes with the file.
afterAll(killLeftServers);

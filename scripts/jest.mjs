// `npm run test:<tier> -- [file or pattern] [jest options]`: jest for one project (tier). The project goes
// last, because `--selectProjects` takes every word after it as a project name, file paths included.
import { createRequire } from 'node:module';

const [project, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], 'jest', ...rest, '--selectProjects', project];
createRequire(import.meta.url)('../node_modules/jest/bin/jest.js');

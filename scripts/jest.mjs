// `npm run test:<tier> -- [file or pattern] [jest options]`: jest for one project (tier). The project goes
// last, because `--selectProjects` takes every word after it as a project name, file paths included.
import { createRequire } from 'node:module';

const [project, ...rest] = process.argv.slice(2);
// Each end-to-end file starts a real n8n: one at a time, whatever the number of cores.
const inBand = project === 'e2e' && !rest.includes('--runInBand') ? ['--runInBand'] : [];
process.argv = [process.argv[0], 'jest', ...rest, ...inBand, '--selectProjects', project];
createRequire(import.meta.url)('../node_modules/jest/bin/jest.js');

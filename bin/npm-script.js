// What the npm scripts run (`npm run build -- …` is `node bin/npm-script.js build …`): the same
// commands as the bin, whose usage and errors then speak of `npm run <command> --`.
import process from 'node:process';
import { importSource } from './compiled.js';

const { main } = await importSource('scripts/weblate-snapshot.ts');
await main(process.argv.slice(2), 'npm');

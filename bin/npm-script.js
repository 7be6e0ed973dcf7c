// What the npm scripts run (`npm run build -- …` is `node bin/npm-script.js build …`): the same
// commands as the bin, on the sources through tsx, so an edit runs at once; their usage and
// errors then speak of `npm run <command> --`.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../scripts/weblate-snapshot.ts');
await main(process.argv.slice(2), 'npm');

#!/usr/bin/env node
// The package's command line: `weblate-snapshot <command> [options]` (scripts/weblate-snapshot.ts).
// The package runs the JavaScript compiled when it was packed (lib/); a clone without that build
// runs the sources through tsx, a dev dependency.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const compiled = new URL('../lib/scripts/weblate-snapshot.js', import.meta.url);
if (!existsSync(compiled)) (await import('tsx/esm/api')).register();
const { main } = await import(
  existsSync(compiled)
    ? compiled.href
    : new URL('../scripts/weblate-snapshot.ts', import.meta.url).href
);
await main(process.argv.slice(2), 'bin');

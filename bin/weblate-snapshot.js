#!/usr/bin/env node
// The package's command line: `weblate-snapshot <command> [options]` (scripts/weblate-snapshot.ts).
import process from 'node:process';
import { importSource } from './compiled.js';

const { main } = await importSource('scripts/weblate-snapshot.ts');
await main(process.argv.slice(2), 'bin');

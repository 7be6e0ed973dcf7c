#!/usr/bin/env node
// The package's command line: registers tsx (the commands are TypeScript), then runs the dispatcher.
import { register } from 'tsx/esm/api';

register();
await import('../scripts/weblate-snapshot.ts');

// Runs after `npm ci` or `npm install` in this repository (never for a user who installs the
// package). The `node24` dev dependency is Node 24 for the package test; npm links its binary as
// node_modules/.bin/node, which would make every npm script and test run on Node 24 instead of the
// Node that runs npm. Removing that link keeps the suite on the Node the user chose.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node24')) unlinkSync(link);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}

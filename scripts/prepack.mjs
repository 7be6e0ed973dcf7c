// `npm pack` and `npm publish` run this first (prepack) and with --clean after (postpack). The
// package runs JavaScript compiled here, never at run time: tsc writes lib/ (JS and the API's
// declarations), the packed tool writes the reader types into lib/types/, and the lock file is
// shipped as npm-shrinkwrap.json so that an install gets the versions this repository tests.
// Both are removed after the pack: in the repository, bin/weblate-snapshot.js would run a lib/
// left behind instead of the sources, and npm would prefer the shrinkwrap to package-lock.json.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const SHRINKWRAP = 'npm-shrinkwrap.json';

rmSync(SHRINKWRAP, { force: true });
rmSync('lib', { recursive: true, force: true });
if (!process.argv.includes('--clean')) {
  const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
  run(process.execPath, ['bin/weblate-snapshot.js', 'types', '--out', 'lib/types', '--quiet']);
  writeFileSync(
    SHRINKWRAP,
    JSON.stringify(withTarballUrls(readFileSync('package-lock.json', 'utf8')), null, 2) + '\n',
  );
}

/** The lock file with each package's tarball URL, which this one leaves out: an install reads no registry index for them. */
function withTarballUrls(text) {
  const lock = JSON.parse(text);
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.resolved || entry.link) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    entry.resolved = `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
  }
  return lock;
}

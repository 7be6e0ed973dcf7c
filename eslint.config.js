// @ts-check
// ESLint with typescript-eslint's type-checked rules; Prettier does the formatting (no style rules here).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Names retired for the glossary of docs/architecture.md: one word per idea. */
const RETIRED = {
  selector: `Identifier[name=/^(${[
    'Site',
    'SiteOverrides',
    'Versions',
    'VersionCache',
    'KnownVersions',
    'createVersions',
    'createVersionCache',
    'siteVersion',
    'isCurrent',
    'CurrentContext',
    'currentContext',
    'mapCurrentProject',
    'SiteRoute',
    'siteRoutesOf',
    'sitePath',
    'siteGroups',
  ].join('|')})$/]`,
  message:
    'A retired name: see the glossary in docs/architecture.md (Settings, Fingerprints, isFlavour2026, the status site).',
};
/** In the servers' code a bind address is `bind`: `host` is a hosting provider. */
const BIND = {
  selector: "Identifier[name='host']:not(MemberExpression > .property)",
  message:
    'A bind address is `bind` (docs/architecture.md, glossary); `host` is a hosting provider.',
};

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'dist.*/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'content/**',
      'test/golden/**',
      'test/fixtures/**',
      '.bench/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An async function that implements a Promise-returning interface (a target, a fake fetch) needs no await.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': ['error', RETIRED],
    },
  },
  {
    files: ['src/sidecar/**', 'src/preview/**', 'src/http/**'],
    rules: { 'no-restricted-syntax': ['error', RETIRED, BIND] },
  },
  {
    // Tests and the bench read JSON back (JSON.parse, Response.json: `any`) and assert on its members.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);

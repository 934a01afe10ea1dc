// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import security from 'eslint-plugin-security';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (DESIGN section 2): apps -> libs only; libs/domain imports nothing but itself;
 * libs/contracts imports only zod; the console takes only types from the API.
 */
const appImportPatterns = [
  { group: ['**/apps/*/**', '../../apps/**', '@rollcall/api', '@rollcall/api/**', '@rollcall/console', '@rollcall/scanner-agent'], message: 'Libraries never import applications (apps -> libs only).' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', '**/*.d.ts', 'e2e/test-results/**', 'e2e/playwright-report/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // issue 11: the security rule set on the code that runs on servers and doors (docs/security.md)
  // (tests build regular expressions and paths from their own data: they are not checked)
  { files: ['apps/api/src/**/*.ts', 'apps/scanner-agent/src/**/*.ts'], ignores: ['**/*.spec.ts', 'apps/api/test/hardening/**'], ...security.configs.recommended },
  {
    files: ['apps/api/src/**/*.ts', 'apps/scanner-agent/src/**/*.ts'],
    rules: {
      // flags every `object[key]`; request input reaches handlers only through zod schemas, and
      // records built from it are read with Object.entries or Map, so the rule cannot tell a risk
      'security/detect-object-injection': 'off',
      // every path the code opens comes from the operator's configuration or a temp directory it made,
      // never from a request (the console's files go through express.static, which confines them)
      'security/detect-non-literal-fs-filename': 'off',
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  {
    // Nest reads constructor parameter types at run time (decorator metadata): a type-only import
    // of an injected class would erase it, so the API keeps value imports where Nest needs them.
    files: ['apps/api/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // the API's two floors (docs/adr/0022): the platform knows no feature; features know neither the
    // composition root nor (through it) each other's wiring
    files: ['apps/api/src/platform/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.contract.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**', '**/root-router', '**/all-projections', '**/app.module', '**/create-app', '**/cli/**'], message: 'The platform never imports a feature or the composition root: take what a feature gives through a port or a token the composition root provides (docs/adr/0022).' }] }],
    },
  },
  {
    files: ['apps/api/src/features/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/root-router', '**/all-projections', '**/app.module', '**/create-app', '**/cli/**'], message: 'A feature never imports the composition root: it exports its parts and the root assembles them (docs/adr/0022).' }] }],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    ignores: ['libs/domain/**/*.spec.ts', 'libs/domain/test/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...appImportPatterns, { regex: '^(?!\\.{1,2}/)', message: 'libs/domain is pure: it imports nothing but itself (no frameworks, no node modules).' }] }],
    },
  },
  {
    files: ['libs/contracts/**/*.ts'],
    ignores: ['libs/contracts/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...appImportPatterns, { regex: '^(?!\\.{1,2}/|zod$)', message: 'libs/contracts imports only zod.' }] }],
    },
  },
  {
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/api/**', '@rollcall/api', '@rollcall/api/**', '@rollcall/domain', '@rollcall/domain/**'], message: 'The console takes only types from the API (import type from @rollcall/api-router).' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/scanner-agent/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/api/**', '@rollcall/api', '@rollcall/api/**', '**/apps/console/**'], message: 'Apps depend on libs, never on each other.' }] }],
    },
  },
  {
    files: ['**/*.spec.ts', 'e2e/**/*.ts', 'bench/**/*.{js,mjs,ts}'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);

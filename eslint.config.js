import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Node's resolution, with the web app's `@/…` alias (scripts/eslint-web-alias.cjs). */
const webAliasResolver = { [fileURLToPath(new URL('./scripts/eslint-web-alias.cjs', import.meta.url))]: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } };

/**
 * Import boundaries (docs/architecture.md):
 * - web: shared pieces (lib, components, i18n, stores) → features → app; features never import each other.
 * - server: platform and db never import modules; a module imports only its own files, the users
 *   repository (shared by auth, me and admin), platform, db and domain; domain imports nothing with I/O.
 * - packages/shared imports nothing from the apps.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'e2e/artifacts/**', 'data/**', 'coverage/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // eslint-plugin-import loads resolvers with require(): scripts/eslint-web-alias.cjs is CommonJS.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Command-line entry points print to the console on purpose.
    files: ['apps/server/src/main.ts', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': webAliasResolver,
      'boundaries/include': ['apps/**/*', 'packages/**/*'],
      'boundaries/elements': [
        { type: 'shared-package', pattern: 'packages/shared/src' },
        { type: 'web-app', pattern: 'apps/web/src/app' },
        { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
        { type: 'web-shared', pattern: 'apps/web/src/(lib|components|i18n|stores)' },
        { type: 'web-entry', pattern: 'apps/web/src/*.{ts,tsx}', mode: 'file' },
        { type: 'server-module', pattern: 'apps/server/src/modules/*', capture: ['module'] },
        { type: 'server-domain', pattern: 'apps/server/src/domain' },
        { type: 'server-platform', pattern: 'apps/server/src/platform' },
        { type: 'server-db', pattern: 'apps/server/src/db' },
        { type: 'server-root', pattern: 'apps/server/src/*.ts', mode: 'file' },
      ],
    },
    rules: {
      'boundaries/element-types': ['error', {
        default: 'disallow',
        rules: [
          { from: 'shared-package', allow: ['shared-package'] },
          { from: 'web-shared', allow: ['web-shared', 'shared-package'] },
          { from: 'web-feature', allow: ['web-shared', 'shared-package', ['web-feature', { feature: '${from.feature}' }]] },
          { from: 'web-app', allow: ['web-app', 'web-feature', 'web-shared', 'shared-package'] },
          { from: 'web-entry', allow: ['web-app', 'web-shared', 'shared-package'] },
          { from: 'server-domain', allow: ['server-domain', 'shared-package'] },
          { from: 'server-platform', allow: ['server-platform', 'server-domain', 'server-db', 'shared-package'] },
          { from: 'server-db', allow: ['server-db', 'shared-package'] },
          // Staff alerts (modules/staff-alerts) are told, like notifications, from any module whose change makes work for staff.
          { from: 'server-module', allow: ['server-platform', 'server-domain', 'server-db', 'server-root', 'shared-package', ['server-module', { module: '${from.module}' }], ['server-module', { module: 'users' }], ['server-module', { module: 'staff-alerts' }]] },
          // The daily summary mail and the staff alerts count the work queue with the overview's own queries.
          { from: [['server-module', { module: 'mail' }], ['server-module', { module: 'staff-alerts' }]], allow: [['server-module', { module: 'overview' }]] },
          // Approving an enrollment creates the promoter's default link.
          { from: [['server-module', { module: 'campaigns' }]], allow: [['server-module', { module: 'links' }]] },
          // Staff invitations and staff-made reset links are auth's one-time password links; a password
          // change from Me ends them.
          { from: [['server-module', { module: 'staff' }], ['server-module', { module: 'promoters' }], ['server-module', { module: 'mail' }], ['server-module', { module: 'me' }]], allow: [['server-module', { module: 'auth' }]] },
          // Registration asks the application form's questions and joins the group an invite link names;
          // the registrations queue and the promoter's page show the answers (issue 31).
          { from: [['server-module', { module: 'auth' }], ['server-module', { module: 'admin' }], ['server-module', { module: 'promoters' }]], allow: [['server-module', { module: 'applications' }]] },
          // The settings screen's calls stay under api/admin/settings, next to the other admin calls.
          { from: [['server-module', { module: 'admin' }]], allow: [['server-module', { module: 'settings' }]] },
          // The program overview reads the same ranges and rollups as the promoter's figures.
          { from: [['server-module', { module: 'overview' }]], allow: [['server-module', { module: 'stats' }]] },
          // The one scheduler ends campaigns at their endsAt as well as approving due commissions.
          { from: [['server-module', { module: 'commissions' }]], allow: [['server-module', { module: 'campaigns' }]] },
          // The Stripe receiver records conversions and ends customers' bindings through the commissions service.
          { from: [['server-module', { module: 'integrations' }]], allow: [['server-module', { module: 'commissions' }]] },
          // Bounties' rewards are commissions: the money engine writes them (commissions/bounty-earning.ts).
          { from: [['server-module', { module: 'bounties' }]], allow: [['server-module', { module: 'commissions' }]] },
          { from: 'server-root', allow: ['server-root', 'server-module', 'server-platform', 'server-db', 'server-domain', 'shared-package'] },
        ],
      }],
    },
  },
  {
    // No import cycles anywhere (a cycle hides which layer depends on which).
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/resolver': webAliasResolver,
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Routes are HTTP only: schema in, service call, schema out. Queries live in the module's
    // repository.ts, transactions in its service.ts (docs/architecture.md).
    files: ['apps/server/src/modules/*/routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['kysely'], message: 'Routes hold no SQL: put the query in the module\'s repository.ts.' },
        { group: ['**/db/*', '**/db'], message: 'Routes do not reach the database: call the module\'s service.' },
      ] }],
      'no-restricted-syntax': ['error',
        { selector: "MemberExpression[object.name='ctx'][property.name=/^(db|sqlite|uow)$/]", message: 'Routes do not reach the database: call the module\'s service.' },
      ],
    },
  },
);

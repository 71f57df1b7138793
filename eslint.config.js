// Lint rules, deliberately few (docs/architecture.md, "Checks"): the recommended sets of ESLint
// and typescript-eslint for plain mistakes, plus the type-aware rules that catch what hurts a
// service most: promises nobody awaits or catches (a lost error, an unhandled rejection that
// kills the process) and promises passed where a callback's result is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', '.tap/**', 'data/**', 'bench/data/**', '.scratch/**', '**/*.mjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' }],
      // Task arguments arrive as untyped JSON; `any` is allowed where a boundary is crossed.
      '@typescript-eslint/no-explicit-any': 'off',
      eqeqeq: ['error', 'smart'],
      'prefer-const': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Off, deliberately: the graph code writes `cond && (a.push(x), visit(x))` on purpose;
      // `let mol = null; try { mol = ... }` is how WASM objects are freed in `finally`; control
      // characters are matched on purpose where inputs are cleaned; a fault found in `finally`
      // must replace whatever the block returned.
      '@typescript-eslint/no-unused-expressions': 'off',
      'no-useless-assignment': 'off',
      'no-control-regex': 'off',
      'no-unsafe-finally': 'off',
      // Errors crossing threads and Redis are re-encoded on purpose (shared/errors.ts).
      'preserve-caught-error': 'off',
    },
  },
  {
    // tap's subtests are promises the runner itself awaits.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
);

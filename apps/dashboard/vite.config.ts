import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

// The platform server answers /api, /platform and /v1 on the same origin in production;
// in development Vite forwards those paths to it so the session cookie stays first-party.
const platform = `http://127.0.0.1:${process.env.PLATFORM_PORT || 8000}`
const proxied = ['/api', '/platform', '/v1']

/**
 * @stratum/contracts mixes zod schemas (for the server) with the constants and types the
 * dashboard uses. Schema-building calls look side-effectful to the bundler, which then keeps
 * every schema and all of zod. Building a schema has no side effects, so mark such calls
 * (z.*, Schema.extend, schema helpers such as DisplayName(...), top-level initialisers) pure:
 * unused schemas, and zod with them, drop out of the bundle (about 20 kB gzip).
 */
function pureContractSchemas(): Plugin {
  const schemaCall = /(?<![\w$.])((?:z\.[\w$]+|[A-Z][\w$]*(?:\.[\w$]+)?)\()/g
  const topLevelCall = /^((?:export )?const [\w$]+(?:: [^=]+)? = )(?=[A-Za-z_$][\w$]*(?:\.[\w$]+)*\()/gm
  return {
    name: 'stratum:pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contracts[\\/]src[\\/].*\.ts$/.test(id)) return null
      const annotated = code
        .replace(topLevelCall, '$1/* @__PURE__ */ ')
        .replace(schemaCall, (call, _name, offset: number, all: string) =>
          all.slice(Math.max(0, offset - 16), offset).includes('@__PURE__') ? call : `/* @__PURE__ */ ${call}`,
        )
      return { code: annotated, map: null }
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [pureContractSchemas(), react()],
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: platform }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A few stable chunks instead of many tiny shared ones: the framework, the shared UI
        // kit with data hooks, and one chunk per area (see src/app/router.tsx).
        codeSplitting: {
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/ },
            {
              name: 'ui',
              test: /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll(-bar)?|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|lucide-react|zod)[\\/]|[\\/]packages[\\/]contracts[\\/]|[\\/]src[\\/](components|data|lib)[\\/]/,
            },
          ],
        },
      },
    },
  },
})

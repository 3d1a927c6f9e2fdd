import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

// The platform server answers /api, /platform and /v1 on the same origin in production;
// in development Vite forwards those paths to it so the session cookie stays first-party.
const platform = `http://127.0.0.1:${process.env.PLATFORM_PORT || 8000}`
const proxied = ['/api', '/platform', '/v1']

/** Files worth compressing: text, fonts and WebAssembly (images and archives are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|ttf|otf|wasm)$/
/** Below this, the compressed file saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the build (brotli at its best
 * quality, gzip at level 9), once at build time: the platform sends them as they are, choosing by
 * the request's Accept-Encoding (apps/platform/src/http/dashboard-static.ts), so no request pays for
 * compression and the best ratios are affordable. A compressed file that is not smaller is dropped.
 */
function precompress(): Plugin {
  const brotli = promisify(zlib.brotliCompress)
  const gzip = promisify(zlib.gzip)
  let outDir = ''
  return {
    name: 'stratum:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const files = fs
        .readdirSync(outDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
      await Promise.all(
        files.map(async (file) => {
          const content = await fs.promises.readFile(file)
          if (content.length < MIN_COMPRESS_BYTES) return
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ])
          if (br.length < content.length) await fs.promises.writeFile(`${file}.br`, br)
          if (gz.length < content.length) await fs.promises.writeFile(`${file}.gz`, gz)
        }),
      )
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  server: {
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: platform }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A few stable chunks instead of many tiny shared ones: the framework; the shared UI kit
        // and the contracts' plain values (every page); the data hooks and icons that two or more
        // areas use ('shared': one used by a single area stays in that area's chunk, so a page
        // does not load every page's hooks and icons); zod with the contracts'
        // schemas (only pages that validate in the browser: the package is sideEffects:false and
        // keeps values apart from schemas, see packages/contracts/README.md); one chunk per area
        // (src/app/router.tsx); and the heavy features' own chunks, loaded when first shown
        // (Monaco, the results grid, charts).
        // The framework is React, the router and TanStack Query; TanStack Virtual (49 KB) stays with the grids that use it.
        codeSplitting: {
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/ },
            {
              name: 'ui',
              test: /node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll(-bar)?|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es)[\\/]|[\\/]src[\\/](components|lib)[\\/]|[\\/]packages[\\/]contracts[\\/]src[\\/](values[\\/]|statuses\.ts)/,
            },
            { name: 'shared', test: /node_modules[\\/]lucide-react[\\/]|[\\/]src[\\/]data[\\/]/, minShareCount: 2 },
            { name: 'schemas', test: /node_modules[\\/]zod[\\/]|[\\/]packages[\\/]contracts[\\/]src[\\/](?!statuses\.ts)[\w-]+\.ts$/ },
          ],
        },
      },
    },
  },
})

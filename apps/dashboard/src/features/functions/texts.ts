import { DEFAULT_ENTRYPOINT } from '@stratum/contracts'

/** Texts of the error catalogues of the API docs and assistant spec and the project shell spec. */
export const FUNCTION_TEXTS = {
  deployed: 'Successfully deployed edge function',
  deployFailed: (message: string | undefined) => `Failed to deploy edge function: ${message || 'Unknown error'}`,
  replaceTitle: 'Replace function',
  writePermission: 'You need additional permissions to deploy edge functions',
  deletePermission: 'You need additional permissions to delete edge functions',
  running:
    'Each function runs in its own Deno process, started by its first request and stopped when idle. Call it with supabase.functions.invoke(slug) or at the URL shown; with Verify JWT, requests need a JWT of the project (the anon key is one).',
  secretsWritePermission: 'You need additional permissions to change edge function secrets',
  secretsReadPermission: 'You need additional permissions to view edge function secrets: owners and administrators see them.',
  secretSaved: (name: string) => `Saved secret ${name}`,
  secretSaveFailed: (message: string) => `Failed to save secret: ${message || 'Unknown error'}`,
  secretDeleted: (name: string) => `Deleted secret ${name}`,
  secretDeleteFailed: (message: string) => `Failed to delete secret: ${message || 'Unknown error'}`,
} as const

/** entrypoint_path is a file:// URL (as the hosted API answers): the file's name within the function. */
export function entrypointFile(fn: { slug: string; entrypoint_path: string }): string {
  const marker = `/functions/${fn.slug}/`
  const at = fn.entrypoint_path.indexOf(marker)
  if (at < 0) return fn.entrypoint_path.replace(/^file:\/\/\/?/, '')
  return fn.entrypoint_path
    .slice(at + marker.length)
    .split('/')
    .map((part) => {
      try {
        return decodeURIComponent(part)
      } catch {
        return part
      }
    })
    .join('/')
}

export const DEFAULT_FUNCTION_CODE = `// ${DEFAULT_ENTRYPOINT}: the function's entrypoint.
Deno.serve(async (req: Request) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }))
  return new Response(JSON.stringify({ message: \`Hello \${name}!\` }), {
    headers: { 'Content-Type': 'application/json' },
  })
})
`

/** Where a function is served: {project API URL}/functions/v1/{slug}. */
export const functionUrl = (apiUrl: string, slug: string) => `${apiUrl}/functions/v1/${slug}`

/**
 * Downloads the deployed files (multipart/form-data, one part per file) with a personal access
 * token: the Management API's GET /v1/projects/{ref}/functions/{slug}/body.
 */
export function downloadCommand(origin: string, ref: string, slug: string): string {
  return `curl -H "Authorization: Bearer $STRATUM_ACCESS_TOKEN" -o ${slug}.multipart ${origin}/v1/projects/${ref}/functions/${slug}/body`
}

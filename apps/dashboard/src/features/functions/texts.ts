import { DEFAULT_ENTRYPOINT } from '@stratum/contracts'

/** Texts of the error catalogues of the API docs and assistant spec and the project shell spec. */
export const FUNCTION_TEXTS = {
  deployed: 'Successfully deployed edge function',
  deployFailed: (message: string | undefined) => `Failed to deploy edge function: ${message || 'Unknown error'}`,
  replaceTitle: 'Replace function',
  writePermission: 'You need additional permissions to deploy edge functions',
  deletePermission: 'You need additional permissions to delete edge functions',
  notExecuted:
    'Edge functions are stored and versioned here, but not executed yet: Stratum has no functions runtime so far. The URL shown is where a function will be served once the runtime arrives.',
} as const

export const DEFAULT_FUNCTION_CODE = `// ${DEFAULT_ENTRYPOINT}: the function's entrypoint.
Deno.serve(async (req: Request) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }))
  return new Response(JSON.stringify({ message: \`Hello \${name}!\` }), {
    headers: { 'Content-Type': 'application/json' },
  })
})
`

/** Where a function will be served: {project API URL}/functions/v1/{slug}. */
export const functionUrl = (apiUrl: string, slug: string) => `${apiUrl}/functions/v1/${slug}`

/**
 * Downloads the deployed files (multipart/form-data, one part per file) with a personal access
 * token: the Management API's GET /v1/projects/{ref}/functions/{slug}/body.
 */
export function downloadCommand(origin: string, ref: string, slug: string): string {
  return `curl -H "Authorization: Bearer $STRATUM_ACCESS_TOKEN" -o ${slug}.multipart ${origin}/v1/projects/${ref}/functions/${slug}/body`
}

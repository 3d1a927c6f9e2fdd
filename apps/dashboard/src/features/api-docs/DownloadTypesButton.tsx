import { Download } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useGenerateTypes } from '../../data/api-docs/useGenerateTypes'
import { downloadText } from '../../lib/download'

/** The spec's texts (api-docs-assistant-sql-panel.md, type generation). */
export const TYPES_SUCCESS = 'Successfully generated types! File is being downloaded.'
export const typesFailure = (message: string) => `Failed to generate types: ${message}`
export const TYPES_FILE_NAME = 'supabase.ts'

/** Generates the project's TypeScript types for the public schema and downloads them. */
export function DownloadTypesButton({ projectRef }: { projectRef: string }) {
  const toast = useToast()
  const generate = useGenerateTypes()
  return (
    <Button
      size="sm"
      icon={<Download size={14} aria-hidden="true" />}
      loading={generate.isPending}
      onClick={() =>
        generate.mutate(
          { ref: projectRef, includedSchemas: ['public'] },
          {
            onSuccess: ({ types }) => {
              toast.success(TYPES_SUCCESS)
              downloadText(TYPES_FILE_NAME, types, 'text/typescript')
            },
            onError: (error) => toast.error(typesFailure(errorMessage(error))),
          },
        )
      }
    >
      Download types
    </Button>
  )
}

import type { Bucket } from '@stratum/contracts'
import { Badge } from '../../components/ui/Badge'
import { formatBytes } from '../../lib/format'
import { ItemHeader } from './ItemHeader'
import { SnippetList } from './SnippetList'
import { bucketSnippets, type Language, type SnippetContext } from './snippets'

interface BucketPageProps {
  bucket: Bucket
  names: string[]
  lang: Language
  ctx: SnippetContext
  onSelect: (name: string) => void
  onBack: () => void
}

/** The allowed MIME types as the record says them: null is every type, an empty list none. */
export function mimeTypesText(types: string[] | null): string {
  if (types === null) return 'All types'
  if (types.length === 0) return 'None'
  return types.join(', ')
}

/** One storage bucket: who may read it, what it accepts, and the file calls. */
export function BucketPage({ bucket, names, lang, ctx, onSelect, onBack }: BucketPageProps) {
  return (
    <article className="docs-page">
      <ItemHeader
        title={bucket.name}
        description={
          bucket.public
            ? 'Files of this bucket are readable by anyone with their public URL.'
            : 'Files of this bucket are read with a key, a user token or a signed URL.'
        }
        items={names}
        itemLabel="Bucket"
        onSelect={onSelect}
        onBack={onBack}
      />
      <section className="docs-block" aria-label="Bucket settings">
        <h4>Bucket settings</h4>
        <dl className="docs-facts">
          <dt>Access</dt>
          <dd>{bucket.public ? <Badge tone="warning">Public</Badge> : <Badge>Private</Badge>}</dd>
          <dt>Allowed MIME types</dt>
          <dd className={bucket.allowed_mime_types?.length ? 'mono' : undefined}>{mimeTypesText(bucket.allowed_mime_types)}</dd>
          <dt>Maximum file size</dt>
          <dd>{bucket.file_size_limit === null ? 'No limit' : formatBytes(bucket.file_size_limit)}</dd>
        </dl>
      </section>
      <SnippetList snippets={bucketSnippets(lang, ctx, bucket)} />
    </article>
  )
}

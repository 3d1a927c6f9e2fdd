import type { FunctionFilesResponse } from '@stratum/contracts'
import { FileCode } from 'lucide-react'
import { Card } from '../../components/ui/Card'
import { CopyButton } from '../../components/ui/CopyButton'
import { formatBytes } from '../../lib/format'

type FunctionFile = FunctionFilesResponse['files'][number]

/** Each deployed file with its contents, the entrypoint first. */
export function FunctionFiles({ files, entrypoint }: { files: FunctionFile[]; entrypoint: string }) {
  const ordered = [...files].sort((a, b) => (a.name === entrypoint ? -1 : b.name === entrypoint ? 1 : a.name.localeCompare(b.name)))
  return (
    <Card title="Files" description={`${files.length} ${files.length === 1 ? 'file' : 'files'} in the deployed version.`} flush>
      <ul className="fn-files">
        {ordered.map((file) => (
          <li key={file.name} className="fn-file">
            <div className="fn-file-header">
              <FileCode size={14} aria-hidden="true" />
              <span className="mono fn-file-name">{file.name}</span>
              {file.name === entrypoint ? <span className="faint">entrypoint</span> : null}
              <span className="spacer" />
              <span className="faint">{formatBytes(file.size)}</span>
              <CopyButton value={file.content} what={file.name} />
            </div>
            <pre className="fn-file-content mono" aria-label={`Contents of ${file.name}`} tabIndex={0}>
              <code>{file.content}</code>
            </pre>
          </li>
        ))}
      </ul>
    </Card>
  )
}

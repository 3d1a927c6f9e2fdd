import { BookOpen } from 'lucide-react'
import { useState } from 'react'
import { IconButton } from '../../components/ui/Button'
import { lazyComponent } from '../../lib/lazyComponent'

const ApiDocsDrawer = lazyComponent(() => import('./ApiDocsDrawer').then((module) => module.ApiDocsDrawer), null)

/** The top bar's API Docs button and the drawer it opens (loaded on first use). */
export function ApiDocsButton({ projectRef, orgSlug }: { projectRef: string; orgSlug: string | undefined }) {
  const [open, setOpen] = useState(false)
  const [loaded, setLoaded] = useState(false)
  return (
    <>
      <IconButton
        label="API Docs"
        aria-haspopup="dialog"
        aria-expanded={open}
        icon={<BookOpen size={16} aria-hidden="true" />}
        onClick={() => {
          setLoaded(true)
          setOpen(true)
        }}
      />
      {loaded ? <ApiDocsDrawer projectRef={projectRef} orgSlug={orgSlug} open={open} onOpenChange={setOpen} /> : null}
    </>
  )
}

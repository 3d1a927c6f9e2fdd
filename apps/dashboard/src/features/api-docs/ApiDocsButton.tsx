import { BookOpen } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { IconButton } from '../../components/ui/Button'

const ApiDocsDrawer = lazy(() => import('./ApiDocsDrawer').then((module) => ({ default: module.ApiDocsDrawer })))

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
      {loaded ? (
        <Suspense fallback={null}>
          <ApiDocsDrawer projectRef={projectRef} orgSlug={orgSlug} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  )
}

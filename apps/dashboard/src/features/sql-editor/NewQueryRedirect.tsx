import { useEffect } from 'react'
import { useNavigate, useParams } from 'react-router'
import { forgetLastSnippet } from './lastSnippet'

/**
 * /project/{ref}/sql/new, Studio's address for a new query: /sql with a fresh draft. The snippet open last is
 * forgotten (else /sql would reopen it), and the editor page mounts anew, so its draft is a new one.
 */
export function NewQueryRedirect() {
  const { ref = '' } = useParams()
  const navigate = useNavigate()
  useEffect(() => {
    forgetLastSnippet(ref)
    void navigate(`/project/${ref}/sql${window.location.search}`, { replace: true })
  }, [ref, navigate])
  return null
}

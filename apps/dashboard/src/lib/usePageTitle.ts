import { useEffect } from 'react'

export const BRAND = 'Stratum'

/**
 * Sets document.title from the most specific part to the least, ending with the brand:
 * ['SQL Editor', 'my-project', 'my-org'] -> 'SQL Editor | my-project | my-org | Stratum'.
 * Unknown parts (still loading) are left out, which gives the spec's shorter forms.
 */
export function usePageTitle(parts: ReadonlyArray<string | null | undefined>) {
  const title = [...parts.filter((part): part is string => Boolean(part && part.trim())), BRAND].join(' | ')
  useEffect(() => {
    document.title = title
  }, [title])
}

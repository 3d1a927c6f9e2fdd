/** The Stratum mark: three strata, the lower ones fainter. Decorative; links around it carry the name. */
export function BrandMark({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--accent)" />
      <rect x="7" y="8" width="18" height="4" rx="2" fill="var(--accent-fg)" />
      <rect x="10" y="14" width="15" height="4" rx="2" fill="var(--accent-fg)" opacity="0.75" />
      <rect x="7" y="20" width="12" height="4" rx="2" fill="var(--accent-fg)" opacity="0.5" />
    </svg>
  )
}

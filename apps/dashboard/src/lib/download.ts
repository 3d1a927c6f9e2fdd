/**
 * Starts a browser download of a same-origin link (such as a signed backup link, which the
 * server answers with Content-Disposition: attachment), without leaving the page.
 */
export function startDownload(url: string): void {
  const link = document.createElement('a')
  link.href = url
  link.download = ''
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}

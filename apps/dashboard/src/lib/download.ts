/**
 * The dashboard's one way to hand the browser a file: a temporary link with the download
 * attribute, clicked and removed, so the page never navigates away.
 */
function clickDownloadLink(href: string, fileName: string): void {
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}

/**
 * Starts a browser download of a same-origin link (such as a signed backup link, which the
 * server answers with Content-Disposition: attachment, whose file name then applies).
 */
export function startDownload(url: string): void {
  clickDownloadLink(url, '')
}

/** Saves text made in the page (an export, generated types, a query) as a file. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  clickDownloadLink(url, fileName)
  // The click has handed the data to the download; the delay leaves room for slower browsers.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000)
}

import { Fragment } from 'react'

/** `code` spans and [text](https://...) links: the only markdown the lints' details use. */
const TOKEN = /(`[^`]+`|\[[^\]]+\]\(https:\/\/[^)\s]+\))/g

/** A lint's detail or description, with its code spans and links drawn (never as HTML). */
export function LintText({ text }: { text: string }) {
  return (
    <>
      {text.split(TOKEN).map((part, index) => {
        if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={index}>{part.slice(1, -1)}</code>
        const link = /^\[([^\]]+)\]\((https:\/\/[^)\s]+)\)$/.exec(part)
        if (link) {
          return (
            <a key={index} href={link[2]} target="_blank" rel="noreferrer">
              {link[1]}
            </a>
          )
        }
        return <Fragment key={index}>{part}</Fragment>
      })}
    </>
  )
}

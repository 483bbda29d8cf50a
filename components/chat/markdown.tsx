'use client'

import { memo } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import remarkGfm from 'remark-gfm'

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-sky-400 underline underline-offset-2">
      {children}
    </a>
  ),
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="min-w-full border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border border-zinc-700 bg-zinc-800/60 px-2 py-1 text-left font-medium">{children}</th>,
  td: ({ children }) => <td className="border border-zinc-700 px-2 py-1">{children}</td>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-lg bg-zinc-950 p-3 text-[13px] leading-relaxed">{children}</pre>,
  img: ({ src, alt }) => (typeof src === 'string' ? <span className="text-zinc-400">[图片：{alt || src}]</span> : null),
}

/**
 * A model's answer as Markdown (GFM tables, lists, code with highlighting). Raw HTML in the
 * text is never rendered (react-markdown without rehype-raw shows it as text), links open
 * apart, and images the model names are shown as text, not loaded.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown space-y-2 break-words">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeHighlight, { detect: true, ignoreMissing: true }]]}
        components={components}
        skipHtml={false}
      >
        {text}
      </ReactMarkdown>
    </div>
  )
})

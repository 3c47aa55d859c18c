// A comment's body as React text nodes (docs/api.md §18): never HTML. Mentions are highlighted;
// only http(s) addresses (shared's bodySegments decides) become links, opened in a new tab with
// no access back to this page.
import { bodySegments } from '@tandem/shared';

export function CommentText({ body }: { body: string }) {
  return (
    <p className="comment-body">
      {bodySegments(body).map((segment, i) => {
        // Segments never move, so their position is their identity.
        const key = `${i}`;
        if (segment.kind === 'mention')
          return (
            <span key={key} className="mention" data-user-id={segment.userId}>
              @{segment.name}
            </span>
          );
        if (segment.kind === 'link')
          return (
            <a key={key} href={segment.href} target="_blank" rel="noopener noreferrer nofollow">
              {segment.text}
            </a>
          );
        return <span key={key}>{segment.text}</span>;
      })}
    </p>
  );
}

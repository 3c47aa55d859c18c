// A built-in template in small: its frames, notes and text as plain boxes. A saved template's
// shapes are not in the list answer, so it shows a generic picture instead of loading each one.
import { builtInTemplate, type ShapeRecord } from '@tandem/shared';
import { fill } from '../board/canvas/palette.ts';
import { boundsOf, unionRect } from '../board/model/geometry.ts';

function Shape({ s }: { s: ShapeRecord }) {
  if (s.type === 'frame')
    return <rect x={s.x} y={s.y} width={s.w} height={s.h} rx={8} className="preview-frame" />;
  if (s.type === 'text')
    return (
      <rect x={s.x} y={s.y + s.h / 3} width={s.w * 0.7} height={s.h / 4} rx={6} className="preview-text" />
    );
  if (s.type === 'ellipse')
    return <ellipse cx={s.x + s.w / 2} cy={s.y + s.h / 2} rx={s.w / 2} ry={s.h / 2} fill={fill[s.color]} />;
  return <rect x={s.x} y={s.y} width={s.w} height={s.h} rx={6} fill={fill[s.color]} />;
}

export function TemplatePreview({ templateId }: { templateId: string }) {
  const t = builtInTemplate(templateId);
  if (!t) return <span className="template-preview saved" aria-hidden="true" />;
  const box = unionRect(t.content.shapes.map(boundsOf))!;
  const pad = Math.max(box.w, box.h) * 0.04;
  return (
    <svg
      className="template-preview"
      viewBox={`${box.x - pad} ${box.y - pad} ${box.w + 2 * pad} ${box.h + 2 * pad}`}
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
    >
      {t.content.shapes.map((s) => (
        <Shape key={s.id} s={s} />
      ))}
    </svg>
  );
}

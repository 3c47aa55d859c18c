// The template gallery (docs/api.md §19), shown by "New board" on the dashboard and by "Insert
// template" on a board: the built-in templates with a preview each, then the person's own and
// those shared with everyone. The owner of a saved template shares, unshares or deletes it here.
import { builtInTemplates, type TemplateSummary, templateSummary } from '@tandem/shared';
import { useCallback, useEffect, useState } from 'react';
import { api, errorSentence } from '../api/client.ts';
import { ModalDialog } from '../board/ui/ModalDialog.tsx';
import { TemplatePreview } from './TemplatePreview.tsx';
import './templates.css';
import { confirmAction } from '../board/ui/Confirm.tsx';

interface Props {
  heading: string;
  meId: string;
  /** A blank start, offered first when there is one (the dashboard's "Blank board"). */
  blank?: string;
  onChoose(template: TemplateSummary | null): void;
  onClose(): void;
}

const offline = builtInTemplates.map(templateSummary);

export function TemplateGallery({ heading, meId, blank, onChoose, onClose }: Props) {
  const [templates, setTemplates] = useState<TemplateSummary[]>(offline);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setTemplates((await api.templates()).templates);
      setError(null);
    } catch (e) {
      // The built-in ones are in the client too, so the gallery still works offline.
      setError(`Only the built-in templates are shown. ${errorSentence(e)}`);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await load();
    } catch (e) {
      setError(errorSentence(e));
    }
  };
  const choose = (t: TemplateSummary | null) => {
    if (busy) return;
    setBusy(true);
    onChoose(t);
  };

  const builtIn = templates.filter((t) => t.builtIn);
  const mine = templates.filter((t) => !t.builtIn && t.ownerId === meId);
  const others = templates.filter((t) => !t.builtIn && t.ownerId !== meId);

  const card = (t: TemplateSummary) => (
    <li key={t.id} className="template-card" data-template-id={t.id}>
      <button
        type="button"
        className="template-use"
        aria-label={`Use template ${t.name}`}
        disabled={busy}
        onClick={() => choose(t)}
      >
        <TemplatePreview templateId={t.id} />
        <span className="template-name">{t.name}</span>
        {t.description && <span className="template-description">{t.description}</span>}
        {!t.builtIn && (
          <span className="template-owner">
            {t.ownerId === meId
              ? t.shared
                ? 'Yours · shared with everyone'
                : 'Yours · only you'
              : `By ${t.ownerName}`}
          </span>
        )}
      </button>
      {!t.builtIn && t.ownerId === meId && (
        <span className="template-actions">
          <button
            type="button"
            className="btn small ghost"
            onClick={() => void run(() => api.shareTemplate(t.id, !t.shared))}
          >
            {t.shared ? 'Stop sharing' : 'Share with everyone'}
          </button>
          <button
            type="button"
            className="btn small ghost danger"
            aria-label={`Delete template ${t.name}`}
            onClick={async () => {
              const ok = await confirmAction({
                title: 'Delete template?',
                body: `“${t.name}” leaves the template gallery. Boards made from it keep their shapes.`,
                confirmLabel: 'Delete template',
                danger: true,
              });
              if (ok) void run(() => api.deleteTemplate(t.id));
            }}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );

  return (
    <ModalDialog title={heading} className="template-gallery" onClose={onClose}>
      <section>
        {error && (
          <p className="warning" role="alert">
            {error}
          </p>
        )}
        <ul className="template-grid">
          {blank && (
            <li className="template-card">
              <button type="button" className="template-use" disabled={busy} onClick={() => choose(null)}>
                <span className="template-preview blank" aria-hidden="true" />
                <span className="template-name">{blank}</span>
                <span className="template-description">An empty board.</span>
              </button>
            </li>
          )}
          {builtIn.map(card)}
        </ul>
        {mine.length > 0 && (
          <>
            <h3>My templates</h3>
            <ul className="template-grid">{mine.map(card)}</ul>
          </>
        )}
        {others.length > 0 && (
          <>
            <h3>Shared by others</h3>
            <ul className="template-grid">{others.map(card)}</ul>
          </>
        )}
      </section>
    </ModalDialog>
  );
}

// The board's Templates menu (docs/api.md §19): insert one from the gallery where the user is
// looking, or save the selected frame or the whole board as a template of one's own.
import type { TemplateSummary } from '@tandem/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { api, errorSentence } from '../../api/client.ts';
import { TemplateGallery } from '../../templates/TemplateGallery.tsx';
import type { ShapeIndex } from '../canvas/shapeIndex.ts';
import { useEditor } from '../store.ts';
import type { BoardSession } from '../sync/provider.ts';
import { ModalDialog } from '../ui/ModalDialog.tsx';
import { focusMenuButton, useMenu } from '../ui/useMenuDismiss.ts';
import { insertTemplate } from './insert.ts';
import { boardTemplate, frameTemplate, type TemplateDraft } from './templates.ts';

interface Props {
  session: BoardSession;
  index: ShapeIndex;
  title: string;
  userId: string;
  readOnly: boolean;
  onMessage(sentence: string): void;
}

type Saving = { draft: TemplateDraft; suggested: string; what: 'frame' | 'board' };

export function TemplatesMenu({ session, index, title, userId, readOnly, onMessage }: Props) {
  const { open, setOpen, wrap, trigger } = useMenu<HTMLDivElement>();
  const [gallery, setGallery] = useState(false);
  const [saving, setSaving] = useState<Saving | null>(null);
  // Looked up when the selection changes, not in the store selector: a selector runs on every
  // store change, and scanning 2,000 selected ids on each frame of a drag is wasted work.
  const selection = useEditor((s) => s.selection);
  const frameId = useMemo(() => {
    const snap = index.getSnapshot();
    return selection.find((id) => snap.byId.get(id)?.type === 'frame') ?? null;
  }, [selection, index]);

  const insert = async (t: TemplateSummary | null) => {
    setGallery(false);
    if (!t) return;
    try {
      const { template } = await api.template(t.id);
      onMessage(await insertTemplate(session, index, template, userId));
    } catch (e) {
      onMessage(errorSentence(e));
    }
  };
  /**
   * Closes the menu with focus on its button, the opener the dialog that follows gives focus back
   * to: the menu item that opened it is gone by then, and focus fell to the page.
   */
  const leaveMenu = () => {
    setOpen(false);
    focusMenuButton(wrap);
  };
  const startSave = (what: 'frame' | 'board') => {
    leaveMenu();
    const draft =
      what === 'frame' && frameId ? frameTemplate(session.doc, frameId) : boardTemplate(session.doc);
    if (!draft.content) return onMessage(draft.problem ?? 'There is nothing to keep yet.');
    const frameName = frameId ? index.getSnapshot().byId.get(frameId)?.name : undefined;
    setSaving({ draft, what, suggested: (what === 'frame' ? frameName : title) || title });
  };

  return (
    <div className="menu-wrap" ref={wrap}>
      <button {...trigger} className="btn ghost" aria-label="Templates" title="Templates">
        <span aria-hidden="true">⊞</span> <span className="label">Templates</span>
      </button>
      {open && (
        <div className="menu panel" role="menu">
          <button
            type="button"
            role="menuitem"
            disabled={readOnly}
            onClick={() => {
              leaveMenu();
              setGallery(true);
            }}
          >
            Insert template…
          </button>
          <button type="button" role="menuitem" disabled={!frameId} onClick={() => startSave('frame')}>
            Save frame as template…
          </button>
          <button type="button" role="menuitem" onClick={() => startSave('board')}>
            Save board as template…
          </button>
        </div>
      )}
      {gallery && (
        <TemplateGallery
          heading="Insert template"
          meId={userId}
          onChoose={(t) => void insert(t)}
          onClose={() => setGallery(false)}
        />
      )}
      {saving && (
        <SaveTemplateDialog
          saving={saving}
          onDone={(sentence) => {
            setSaving(null);
            if (sentence) onMessage(sentence);
          }}
        />
      )}
    </div>
  );
}

function SaveTemplateDialog({ saving, onDone }: { saving: Saving; onDone(sentence: string | null): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const content = saving.draft.content;
    if (!content) return;
    setBusy(true);
    try {
      const { template } = await api.saveTemplate({
        name: String(data.get('name') ?? ''),
        content,
        shared: data.get('shared') === 'on',
      });
      onDone(
        `Saved the template “${template.name}”${template.shared ? ', shared with everyone on this server' : ''}.`,
      );
    } catch (err) {
      setError(errorSentence(err));
      setBusy(false);
    }
  };
  return (
    <ModalDialog
      title={saving.what === 'frame' ? 'Save frame as template' : 'Save board as template'}
      className="save-template"
      closeButton={false}
      onClose={() => onDone(null)}
    >
      <section>
        <form onSubmit={(e) => void submit(e)}>
          <label className="field">
            Template name
            <input type="text" name="name" defaultValue={saving.suggested} maxLength={80} required />
          </label>
          <label>
            <input type="checkbox" name="shared" /> Share with everyone on this server
          </label>
          <p className="hint">
            {saving.draft.content?.shapes.length} shapes
            {saving.draft.imagesLeftOut
              ? `; ${saving.draft.imagesLeftOut} image${saving.draft.imagesLeftOut === 1 ? '' : 's'} left out (templates hold no images)`
              : ''}
            .
          </p>
          {error && (
            <p className="warning" role="alert">
              {error}
            </p>
          )}
          <div className="row">
            <button type="submit" className="btn primary" disabled={busy}>
              Save template
            </button>
            <button type="button" className="btn" onClick={() => onDone(null)}>
              Cancel
            </button>
          </div>
        </form>
      </section>
    </ModalDialog>
  );
}

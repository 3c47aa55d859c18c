// Comment threads on the client (client/src/board/comments/threads.ts), pure and in Node: the list
// kept from events, pins that follow their shapes, the panel's filters, and typing mentions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Comment,
  type Member,
  type Mention,
  mentionMarkup,
  type ShapeRecord,
  type ThreadWithComments,
} from '@tandem/shared';
import {
  closeUpAfterMention,
  composeBody,
  editableText,
  filterThreads,
  insertMention,
  mentionCandidates,
  mentionQuery,
  pinPosition,
  resolvedText,
  shapeDeleted,
  threadPage,
  threadsReducer,
  unreadByThread,
} from '../src/board/comments/threads.ts';

const ana = { id: 'ana-ana-ana-ana-1', name: 'Ana', color: '#f00' };
const ben = { id: 'ben-ben-ben-ben-1', name: 'Ben Ng', color: '#00f' };

const comment = (id: string, body: string, at: string, by = ana): Comment => ({
  id,
  threadId: 't',
  body,
  createdBy: by.id,
  author: by,
  createdAt: at,
  editedAt: null,
});
const thread = (id: string, anchor: ThreadWithComments['anchor'], comments: Comment[], resolved = false) =>
  ({
    id,
    boardId: 'b',
    pageId: 'main',
    anchor,
    resolved,
    createdBy: ana.id,
    createdAt: comments[0]?.createdAt ?? '2026-01-01T00:00:00.000Z',
    resolvedBy: null,
    resolvedAt: null,
    comments,
  }) satisfies ThreadWithComments;
const member = (u: typeof ana): Member => ({
  userId: u.id,
  name: u.name,
  email: null,
  color: u.color,
  isGuest: false,
  role: 'editor',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('comment threads', () => {
  it('a loaded list takes events: a changed thread replaces its old self or is added; removed goes', () => {
    const a = thread('a', { x: 0, y: 0 }, [comment('1', 'hi', '2026-01-01T00:00:00.000Z')]);
    const b = thread('b', { x: 1, y: 1 }, []);
    let list = threadsReducer([], { type: 'loaded', threads: [a] });
    list = threadsReducer(list, { type: 'changed', thread: b });
    const a2 = { ...a, resolved: true };
    list = threadsReducer(list, { type: 'changed', thread: a2 });
    assert.deepEqual(list, [a2, b]);
    assert.deepEqual(threadsReducer(list, { type: 'removed', threadId: 'a' }), [b]);
    assert.equal(
      threadsReducer(list, { type: 'removed', threadId: 'zzz' }),
      list,
      'nothing to remove: same list',
    );
  });

  it("a pin sits at its shape's top-right corner and follows it; a deleted shape's thread has none", () => {
    const t = thread('a', { shapeId: 's1' }, []);
    const at = (x: number, y: number) =>
      new Map([['s1', { id: 's1', type: 'sticky', x, y, w: 200, h: 150 } as ShapeRecord]]);
    assert.deepEqual(pinPosition(t, at(0, 0)), { x: 200, y: 0 });
    assert.deepEqual(pinPosition(t, at(300, -40)), { x: 500, y: -40 });
    assert.equal(pinPosition(t, new Map()), null);
    assert.ok(shapeDeleted(t, new Map()));
    assert.deepEqual(pinPosition(thread('p', { x: 7, y: 8 }, []), new Map()), { x: 7, y: 8 });
  });

  it('a thread is on its own page: here, on another page of the list, or on a deleted one', () => {
    const pages = [
      { id: 'main', name: '' },
      { id: 'risks00001', name: 'Risks' },
    ];
    const onRisks = { ...thread('r', { shapeId: 's1' }, []), pageId: 'risks00001' };
    assert.deepEqual(threadPage(onRisks, 'risks00001', pages), { kind: 'here' });
    assert.deepEqual(threadPage(onRisks, 'main', pages), { kind: 'other', page: pages[1] });
    assert.deepEqual(threadPage(thread('m', { x: 0, y: 0 }, []), 'risks00001', pages), {
      kind: 'other',
      page: pages[0],
    });
    assert.deepEqual(threadPage(onRisks, 'main', pages.slice(0, 1)), { kind: 'gone' });
  });

  it('the panel lists open, resolved, or mentioning me, latest activity first', () => {
    const old = thread('old', { x: 0, y: 0 }, [comment('1', 'x', '2026-01-01T00:00:00.000Z')]);
    const recent = thread('recent', { x: 0, y: 0 }, [
      comment('2', `${mentionMarkup('Ben Ng', ben.id)} look`, '2026-01-02T00:00:00.000Z'),
    ]);
    const done = thread('done', { x: 0, y: 0 }, [comment('3', 'y', '2026-01-03T00:00:00.000Z')], true);
    const all = [old, recent, done];
    assert.deepEqual(
      filterThreads(all, 'open', ben.id).map((t) => t.id),
      ['recent', 'old'],
    );
    assert.deepEqual(
      filterThreads(all, 'resolved', ben.id).map((t) => t.id),
      ['done'],
    );
    assert.deepEqual(
      filterThreads(all, 'mentions', ben.id).map((t) => t.id),
      ['recent'],
    );
    const mention = (threadId: string, read: boolean, boardId = 'b') =>
      ({ boardId, threadId, read }) as Mention;
    assert.deepEqual(
      [
        ...unreadByThread(
          [
            mention('recent', false),
            mention('recent', false),
            mention('old', true),
            mention('x', false, 'c'),
          ],
          'b',
        ),
      ],
      [['recent', 2]],
    );
  });

  it('typing @ lists members by name, leaves the author out, and inserts @Name', () => {
    const members = [member(ana), member(ben)];
    assert.deepEqual(mentionQuery('hello @Be', 9), { start: 6, query: 'Be' });
    assert.equal(mentionQuery('mail ana@example.com', 20), null, 'an @ inside a word is no mention');
    assert.equal(mentionQuery('no at sign', 10), null);
    assert.deepEqual(
      mentionCandidates(members, 'ng', ana.id).map((m) => m.name),
      ['Ben Ng'],
    );
    assert.deepEqual(
      mentionCandidates(members, '', ana.id).map((m) => m.name),
      ['Ben Ng'],
    );
    // A bot (an integration's identity) is a member, but nobody reads its bell: not offered.
    const bot = { ...member(ben), userId: 'bot-1', name: 'Bennet the sorter', isBot: true as const };
    assert.deepEqual(
      mentionCandidates([...members, bot], 'ben', ana.id).map((m) => m.name),
      ['Ben Ng'],
    );
    const typed = insertMention('hi @Be', { start: 3, query: 'Be' }, 'Ben Ng');
    assert.deepEqual(typed, { text: 'hi @Ben Ng ', caret: 11 });
  });

  it('punctuation typed right after a picked mention takes the place of its space; anything else keeps it', () => {
    // "hi @Ben Ng " with its space at 10, then "?" typed after it (and text after the caret kept).
    assert.deepEqual(closeUpAfterMention('hi @Ben Ng ', 'hi @Ben Ng ?', 10), {
      text: 'hi @Ben Ng?',
      caret: 11,
    });
    assert.deepEqual(closeUpAfterMention('@Ben  ok', '@Ben , ok', 4), { text: '@Ben, ok', caret: 5 });
    assert.equal(closeUpAfterMention('hi @Ben ', 'hi @Ben a', 7), null, 'a letter keeps the space');
    assert.equal(closeUpAfterMention('hi @Ben ', 'hi @Ben ?!', 7), null, 'a paste keeps it');
    assert.equal(closeUpAfterMention('hi @Ben ', 'hi @Ben', 7), null, 'a deletion is a deletion');
    assert.equal(closeUpAfterMention('hi @Ben ', '?hi @Ben ', 7), null, 'typed elsewhere');
  });

  it('a resolved thread says who resolved it', () => {
    const members = [{ userId: ben.id, name: 'Ben Ng' }];
    const thread = { resolved: true, resolvedBy: ben.id, comments: [] };
    assert.equal(resolvedText(thread, members, ana.id), 'Resolved by Ben Ng');
    assert.equal(resolvedText(thread, members, ben.id), 'Resolved by you');
    assert.equal(resolvedText({ ...thread, resolvedBy: 'gone' }, members, ana.id), 'Resolved');
    assert.equal(resolvedText({ ...thread, resolved: false, resolvedBy: null }, members, ana.id), 'Open');
  });

  it('what is typed becomes the body with mentions of the picked members only, and back again', () => {
    const picked = [
      { name: 'Ben Ng', userId: ben.id },
      { name: 'Ben', userId: 'someone-else-000' },
    ];
    const body = composeBody('@Ben Ng and @Ben, not @Cy or a@b.c  ', picked);
    assert.equal(
      body,
      `${mentionMarkup('Ben Ng', ben.id)} and ${mentionMarkup('Ben', 'someone-else-000')}, not @Cy or a@b.c`,
    );
    assert.deepEqual(editableText(body), { text: '@Ben Ng and @Ben, not @Cy or a@b.c', picked });
    assert.equal(composeBody('   ', []), '');
  });

  it('an @Name typed out in full, not picked from the list, mentions that member too', () => {
    // What the Composer passes: the members the @ list offers (others, not bots).
    const typed = mentionCandidates(
      [
        member(ana),
        member(ben),
        { ...member({ id: 'bot-bot-bot-bot-1', name: 'Sorter', color: '#0f0' }), isBot: true },
      ],
      '',
      ana.id,
      Number.POSITIVE_INFINITY,
    );
    assert.equal(
      composeBody('Yes if @ben ng finishes it (@Ben Ng)', [], typed),
      `Yes if ${mentionMarkup('Ben Ng', ben.id)} finishes it (${mentionMarkup('Ben Ng', ben.id)})`,
    );
    // Not a longer word, an email address, the author, a bot, or a name two members share.
    assert.equal(
      composeBody('@Ben Ngo, ben@Ben Ng, @Ana, @Sorter', [], typed),
      '@Ben Ngo, ben@Ben Ng, @Ana, @Sorter',
    );
    const twins = [
      { name: 'Ben Ng', userId: ben.id },
      { name: 'ben ng', userId: 'other-ben-000000' },
    ];
    assert.equal(composeBody('@Ben Ng', [], twins), '@Ben Ng');
    // A pick still decides between the two.
    assert.equal(composeBody('@ben ng', [twins[1]!], twins), mentionMarkup('ben ng', 'other-ben-000000'));
  });
});

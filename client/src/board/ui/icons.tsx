// Small stroke icons (24×24 grid), drawn here so the app has no icon dependency.
const paths: Record<string, string> = {
  select: 'M5 3l14 8-6 2-3 6z',
  keyboard: 'M3 7h18v10H3zM6 10h1M9 10h1M12 10h1M15 10h1M18 10h1M7 14h10',
  hand: 'M8 13V5.5a1.5 1.5 0 0 1 3 0V12M11 11V4a1.5 1.5 0 0 1 3 0v7M14 11V5.5a1.5 1.5 0 0 1 3 0V13M17 10a1.5 1.5 0 0 1 3 0v4a7 7 0 0 1-7 7h-1a7 7 0 0 1-5.5-2.7L4 15a1.5 1.5 0 0 1 2.4-1.8L8 15',
  sticky: 'M4 4h16v10l-6 6H4zM14 20v-6h6',
  rect: 'M4 6h16v12H4z',
  ellipse: 'M12 5c4.4 0 8 3.1 8 7s-3.6 7-8 7-8-3.1-8-7 3.6-7 8-7z',
  diamond: 'M12 3l9 9-9 9-9-9z',
  text: 'M5 6V4h14v2M12 4v16M9 20h6',
  arrow: 'M5 19L19 5M10 5h9v9',
  pen: 'M4 20c4-1 5-4 8-7l6-6a2 2 0 0 0-3-3l-6 6c-3 3-6 4-7 8z',
  eraser: 'M8 20l-4-4 10-10 6 6-8 8zM4 16l6 6M13 20h7',
  undo: 'M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3',
  zoomIn: 'M12 5v14M5 12h14',
  zoomOut: 'M5 12h14',
  fit: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  fitSelection: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5M9 9h6v6H9z',
  minimap: 'M3 5h18v14H3zM12 11h6v5h-6z',
  search: 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM20 20l-4.8-4.8',
  share: 'M16 6l-4-4-4 4M12 2v13M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7',
  download: 'M12 3v12M7 10l5 5 5-5M5 21h14',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  up: 'M12 19V5M6 11l6-6 6 6',
  down: 'M12 5v14M6 13l6 6 6-6',
  back: 'M15 18l-6-6 6-6',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  close: 'M6 6l12 12M18 6L6 18',
  upload: 'M12 21V9M7 14l5-5 5 5M5 3h14',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15 9.5a1.5 1.5 0 1 0 0-.01',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  lock: 'M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3',
  unlock: 'M6 11h12v9H6zM8 11V8a4 4 0 0 1 7.5-2',
  group: 'M3 3h4M17 3h4M3 21h4M17 21h4M3 3v4M3 17v4M21 3v4M21 17v4M7 7h6v6H7zM11 11h6v6h-6z',
  ungroup: 'M4 4h7v7H4zM13 13h7v7h-7z',
  alignLeft: 'M4 3v18M8 7h10v4H8zM8 14h6v4H8z',
  alignCenter: 'M12 3v18M6 7h12v4H6zM8 14h8v4H8z',
  alignRight: 'M20 3v18M6 7h10v4H6zM10 14h6v4h-6z',
  alignTop: 'M3 4h18M7 8v10h4V8zM14 8v6h4V8z',
  alignMiddle: 'M3 12h18M7 6v12h4V6zM14 8v8h4V8z',
  alignBottom: 'M3 20h18M7 6v10h4V6zM14 10v6h4v-6z',
  distributeX: 'M4 3v18M20 3v18M10 7h4v10h-4z',
  distributeY: 'M3 4h18M3 20h18M7 10h10v4H7z',
  textLeft: 'M4 6h16M4 10h10M4 14h16M4 18h10',
  textCenter: 'M4 6h16M7 10h10M4 14h16M7 18h10',
  textRight: 'M4 6h16M10 10h10M4 14h16M10 18h10',
  toolLock: 'M12 3v4M8 7h8l-1 6H9zM12 13v8',
  comment: 'M4 5h16v11H9l-5 4z',
  bell: 'M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4',
  check: 'M5 12l5 5 9-10',
  pages: 'M7 3h10v14H7zM4 7v14h10',
  pencil: 'M4 20l4-1 11-11-3-3L5 16zM14 6l3 3',
  plus: 'M12 5v14M5 12h14',
  more: 'M4 12a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM10.5 12a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0zM17 12a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0z',
};

export type IconName = keyof typeof paths;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths[name]} />
    </svg>
  );
}

import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { addScreenTexts } from '../app/i18n';

const NS = addScreenTexts(
  'unsaved',
  {
    title: '有未保存的修改',
    body: '离开后，这些修改将会丢失。',
    leave: '放弃修改并离开',
    stay: '留下继续编辑',
  },
  {
    title: 'You have unsaved changes',
    body: 'If you leave now, these changes are lost.',
    leave: 'Discard and leave',
    stay: 'Stay and keep editing',
  },
);

/** The page with unsaved edits, asked before something outside the router (a tab close) leaves it. */
let guard: (() => Promise<boolean>) | null = null;

/**
 * Whether the page may be left: asks the person when the page on screen has unsaved edits
 * (answers true at once when it has none). The multi-tab bar calls it before closing the
 * current tab.
 */
export function confirmLeave(): Promise<boolean> {
  return guard ? guard() : Promise.resolve(true);
}

/**
 * Keeps unsaved edits from being lost without a word: while `dirty`, leaving the page by the
 * menu, a link, the back button or a tab close asks first, and closing or reloading the browser
 * tab gets the browser's own question. `markSaved()` clears the flag at once (before a
 * navigation that follows a save in the same tick).
 */
export function useUnsavedChanges() {
  const { t } = useTranslation(NS);
  const { modal } = App.useApp();
  const [dirty, setDirty] = useState(false);
  const dirtyRef = useRef(false);
  // Set once the person chose to leave: the navigation that follows is not asked again.
  const leaving = useRef(false);

  const markDirty = useCallback(() => {
    if (dirtyRef.current) return;
    dirtyRef.current = true;
    leaving.current = false;
    setDirty(true);
  }, []);
  const markSaved = useCallback(() => {
    dirtyRef.current = false;
    setDirty(false);
  }, []);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t('title'),
          content: t('body'),
          okText: t('leave'),
          okButtonProps: { danger: true, id: 'unsaved-leave' },
          cancelText: t('stay'),
          cancelButtonProps: { id: 'unsaved-stay' },
          onOk: () => {
            leaving.current = true;
            resolve(true);
          },
          onCancel: () => resolve(false),
        });
      }),
    [modal, t],
  );

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  // One question per blocked navigation (the blocker object changes on every render).
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void ask().then((ok) => {
      asking.current = false;
      if (ok) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, ask]);

  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    const mine = () => (dirtyRef.current && !leaving.current ? ask() : Promise.resolve(true));
    guard = mine;
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      if (guard === mine) guard = null;
    };
  }, [dirty, ask]);

  return { dirty, markDirty, markSaved };
}

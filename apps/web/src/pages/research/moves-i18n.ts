import { addScreenTexts } from '../../app/i18n';

/** Texts of the status-move confirmation (moves.ts). */
export const MOVES_NS = addScreenTexts(
  'researchMoves',
  {
    title: '将课题状态改为“{{to}}”？',
    stopRecruiting: '之后不再按条件招募新患者；已入组的患者保留。',
    close: '关闭后课题不再接收数据和修改，只能查看。',
    conclude: '结题是最终状态，之后不能再变更状态。',
    ok: '确认变更',
    cancel: '取消',
  },
  {
    title: 'Change the subject’s status to “{{to}}”?',
    stopRecruiting: 'No more patients are recruited by the criteria afterwards; those enrolled stay.',
    close: 'A closed subject takes no more data or changes; it can only be read.',
    conclude: 'Concluded is the final status: no further status changes.',
    ok: 'Change status',
    cancel: 'Cancel',
  },
);

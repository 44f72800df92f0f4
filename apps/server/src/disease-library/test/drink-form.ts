import type { Form } from '@crdp/crf';

/** A library form with a single choice (饮酒: codes 0/1/3, 从不/偶尔/经常) and a number (ALT). */
export const DRINK_FORM: Form = {
  pages: [
    {
      key: 'p',
      title: '随访',
      items: [
        {
          key: 'drink',
          type: 'radio',
          title: '饮酒',
          options: [
            { code: 0, name: '从不' },
            { code: 1, name: '偶尔' },
            { code: 3, name: '经常' },
          ],
        },
        { key: 'alt', type: 'textQuestion', title: 'ALT', textType: 'number' },
      ],
    },
  ],
} as Form;

import i18next from 'i18next';

/** Texts of the demo hospital's banner and the saved charts of the workbench. */
const zhCN = {
  preparing: '示范数据生成中 … {{progress}}%',
  preparingHint: '示范医院的患者、CRF、专病库、科研课题和图表正在后台生成，可以先浏览已生成的部分。',
  failed: '示范数据生成未完成（{{progress}}%）',
  failedHint: '重新启动服务器后会从中断处继续生成，已生成的数据不会重复。',
  savedCharts: '已保存的图表',
  allCharts: '全部图表',
};
const enUS: typeof zhCN = {
  preparing: 'Preparing demo data … {{progress}}%',
  preparingHint:
    "The demo hospital's patients, CRFs, disease library, research subject and charts are being made in the background; what is ready can be browsed now.",
  failed: 'Demo data not finished ({{progress}}%)',
  failedHint: 'Restart the server to continue where it stopped; nothing made so far is made twice.',
  savedCharts: 'Saved charts',
  allCharts: 'All charts',
};

i18next.addResourceBundle('zh-CN', 'translation', { demoHospital: zhCN }, true, false);
i18next.addResourceBundle('en-US', 'translation', { demoHospital: enUS }, true, false);

/**
 * Messages the server sends to people, in both languages of the product. The web app has
 * its own catalogue for screen text; these are the texts that travel in API errors.
 */
export type Locale = 'zh-CN' | 'en-US';
export const DEFAULT_LOCALE: Locale = 'zh-CN';

const catalogue = {
  'auth.badCredentials': { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong user name or password' },
  'auth.tooManyGuesses': {
    'zh-CN': '密码错误次数过多，请 {seconds} 秒后再试',
    'en-US': 'Too many wrong passwords; try again in {seconds} seconds',
  },
  'auth.disabled': {
    'zh-CN': '账号已停用，请联系管理员',
    'en-US': 'This account is disabled; contact your administrator',
  },
  'auth.noProduct': {
    'zh-CN': '您尚未获得该产品的访问权限！',
    'en-US': 'You have not yet been granted access to this product!',
  },
  'auth.noApp': { 'zh-CN': '您不属于该应用', 'en-US': 'You are not a member of this app' },
  'auth.required': { 'zh-CN': '请先登录', 'en-US': 'Please log in first' },
  'auth.expired': {
    'zh-CN': '登录已过期，请重新登录',
    'en-US': 'Your session has expired, please log in again',
  },
  'auth.forbidden': {
    'zh-CN': '没有“{function}”的权限，请联系管理员分配',
    'en-US': 'You do not have the permission “{function}”; ask an administrator to grant it',
  },
  'backup.operatorOnly': {
    'zh-CN':
      '整站备份含有所有医院的数据，只能由服务器上的运维命令（npm run backup）下载；本院的数据请在“数据库导出”页面导出',
    'en-US':
      "A whole-site backup holds every hospital's data and is downloaded only by the operator's command on the server (npm run backup); export this hospital's data on the Database export page",
  },
  'auth.scope': {
    'zh-CN': '免登录链接无权访问该资源',
    'en-US': 'This free-access link does not reach this resource',
  },
  'auth.freeKeyInvalid': {
    'zh-CN': '免登录链接无效、已过期或已撤销',
    'en-US': 'The free-access link is invalid, expired or revoked',
  },
  'auth.handoffInvalid': {
    'zh-CN': '登录链接无效或已失效（每个链接只能使用一次，1 分钟内有效），请重新登录',
    'en-US':
      'This sign-in link is invalid or no longer valid (each link works once, within 1 minute); please sign in again',
  },
  'password.oldRequired': { 'zh-CN': '旧密码不能为空', 'en-US': 'Old password cannot be empty' },
  'password.newRequired': { 'zh-CN': '新密码不能为空', 'en-US': 'New password cannot be empty' },
  'password.oldWrong': { 'zh-CN': '旧密码错误', 'en-US': 'The old password is wrong' },
  'password.same': {
    'zh-CN': '新密码不能与旧密码相同',
    'en-US': 'The new password must differ from the old one',
  },
  'password.characters': {
    'zh-CN': '密码不能包含控制字符或无效字符（如换行、制表符）',
    'en-US': 'The password must not contain control or invalid characters (such as line breaks or tabs)',
  },
  'password.length': {
    'zh-CN': '密码长度须为 8 到 32 位',
    'en-US': 'The password must be 8 to 32 characters long',
  },
  'password.kinds': {
    'zh-CN': '密码须包含大写字母、小写字母、数字、特殊字符中的至少三种',
    'en-US': 'The password must contain at least three of: uppercase, lowercase, digit, special character',
  },
  'password.decrypt': {
    'zh-CN': '密码密文无法解密，请刷新页面后重试',
    'en-US': 'The encrypted password could not be decrypted; reload the page and try again',
  },
  'request.invalid': { 'zh-CN': '请求参数错误：{detail}', 'en-US': 'Invalid request: {detail}' },
  // A request that is well formed but cannot be done in the data's present state (409).
  'report.notOwner': {
    'zh-CN': '报表“{name}”由 {owner} 创建，只有创建者可以修改或删除',
    'en-US': 'The report "{name}" was made by {owner}; only its maker may change or delete it',
  },
  'request.conflict': { 'zh-CN': '无法完成：{detail}', 'en-US': 'Cannot be done: {detail}' },
  'text.control': {
    'zh-CN': '不能包含控制字符（{where}）',
    'en-US': 'must not contain control characters ({where})',
  },
  'text.surrogate': {
    'zh-CN': '含有无效的 Unicode 字符（{where}）',
    'en-US': 'contains an invalid Unicode character ({where})',
  },
  'text.position': { 'zh-CN': '位置 {position}', 'en-US': 'position {position}' },
  'text.lineColumn': {
    'zh-CN': '第 {line} 行第 {column} 个字符',
    'en-US': 'line {line}, character {column}',
  },
  'date.notReal': { 'zh-CN': '不是真实存在的日期（YYYY-MM-DD）', 'en-US': 'not a real date (YYYY-MM-DD)' },
  'text.blank': { 'zh-CN': '不能为空', 'en-US': 'must not be blank' },
  'cdr.dateTimeFormat': {
    'zh-CN': '应为日期时间，例如 2024-03-01T08:00:00+08:00',
    'en-US': 'expected a date-time such as 2024-03-01T08:00:00+08:00',
  },
  'cdr.dateTimeNotReal': { 'zh-CN': '不是真实存在的日期时间', 'en-US': 'not a real date-time' },
  'cdr.dateNotReal': { 'zh-CN': '不是真实存在的日期', 'en-US': 'not a real date' },
  'cdr.labNeedsValue': {
    'zh-CN': '结果需要 valueNum 或 valueText',
    'en-US': 'a result needs valueNum or valueText',
  },
  'request.malformedJson': {
    'zh-CN': '请求体不是合法的 JSON',
    'en-US': 'The request body is not valid JSON',
  },
  'request.mediaType': {
    'zh-CN': '不支持的内容类型：{type}',
    'en-US': 'Unsupported content type: {type}',
  },
  'request.tooLarge': { 'zh-CN': '请求体过大', 'en-US': 'The request body is too large' },
  'request.rateLimited': {
    'zh-CN': '请求过于频繁，请 {seconds} 秒后再试',
    'en-US': 'Too many requests, try again in {seconds} seconds',
  },
  'request.unknownMethod': {
    'zh-CN': '未知的方法：{method}',
    'en-US': 'Unknown method: {method}',
  },
  'request.notFound': { 'zh-CN': '接口不存在：{path}', 'en-US': 'No such API: {path}' },
  'request.methodNotAllowed': {
    'zh-CN': '接口 {path} 不支持 {method} 方法',
    'en-US': '{path} does not accept the {method} method',
  },
  'request.contentLength': {
    'zh-CN': '请求体大小与 Content-Length 请求头不符',
    'en-US': 'The request body size does not match the Content-Length header',
  },
  'request.missingContentType': {
    'zh-CN': '{method} 请求必须带 Content-Type 请求头',
    'en-US': 'A {method} request must carry a Content-Type header',
  },
  'request.badUrl': { 'zh-CN': '网址中有无效的部分：{url}', 'en-US': 'The URL has an invalid part: {url}' },
  'request.paramTooLong': {
    'zh-CN': '网址中的参数过长：{url}',
    'en-US': 'A parameter in the URL is too long: {url}',
  },
  'request.rejected': {
    'zh-CN': '请求被拒绝（HTTP {status}）：{detail}',
    'en-US': 'The request was rejected (HTTP {status}): {detail}',
  },
  'entity.notFound': { 'zh-CN': '{entity}不存在', 'en-US': '{entity} not found' },
  'job.abandoned': {
    'zh-CN': '运行该作业的进程 {attempts} 次停止响应，作业已放弃，请重试',
    'en-US':
      'The process running the job stopped responding {attempts} times; the job was given up, retry it',
  },
  'research.illegalMove': {
    'zh-CN': '课题状态不能从“{from}”变为“{to}”；当前允许：{allowed}',
    'en-US': 'A subject cannot move from "{from}" to "{to}"; allowed now: {allowed}',
  },
  'research.moveBlocked': {
    'zh-CN': '课题暂不能变为“{to}”：{why}',
    'en-US': 'The subject cannot move to "{to}" yet: {why}',
  },
  'research.wrongStatus': {
    'zh-CN': '课题状态为“{status}”，此操作需要：{needed}',
    'en-US': 'The subject is "{status}"; this needs: {needed}',
  },
  'research.notMember': {
    'zh-CN': '您不是该课题的成员',
    'en-US': 'You are not a member of this subject',
  },
  'research.centersOff': {
    'zh-CN':
      '多中心模式未开启，课题不能设置参与中心（centers 字段）；请先在站点配置中开启多中心模式，或不填参与中心',
    'en-US':
      'Multi-center mode is off, so a subject cannot have centers (field centers); switch the mode on in the site configuration or leave the centers out',
  },
  'research.stats.collinear': {
    'zh-CN': '自变量之间存在共线性（或某一变量为常数），无法估计',
    'en-US': 'The predictors are collinear (or one of them is constant), so nothing can be estimated',
  },
  'forecast.tooShort': {
    'zh-CN': '预测至少需要两个完整周期（{needed} 天）的数据，现有 {have} 天',
    'en-US': 'A forecast needs at least two full seasons ({needed} days) of data; there are {have}',
  },
  'forecast.badSeries': {
    'zh-CN': '预测的序列中有非数值',
    'en-US': 'The series to forecast holds a value that is not a number',
  },
  'research.stats.twoPerGroup': {
    'zh-CN': '每组至少需要两个数值',
    'en-US': 'Each group needs at least two values',
  },
  'research.stats.onePerGroup': {
    'zh-CN': '每组至少需要一个数值',
    'en-US': 'Each group needs at least one value',
  },
  'research.stats.constantGroups': {
    'zh-CN': '两组的数值都相同（方差为 0），无法进行 t 检验',
    'en-US': 'Both groups have one value throughout (variance 0), so a t-test cannot run',
  },
  'research.stats.tableSize': {
    'zh-CN': '列联表至少需要两行两列',
    'en-US': 'The table needs at least two rows and two columns',
  },
  'research.stats.emptyCell': {
    'zh-CN': '列联表有一行或一列合计为 0',
    'en-US': 'A row or column of the table adds up to 0',
  },
  'research.stats.tooFewRows': {
    'zh-CN': '有效例数（{n}）必须多于待估计的系数个数（{p}）',
    'en-US': 'The valid rows ({n}) must outnumber the coefficients to estimate ({p})',
  },
  'research.stats.binaryOutcome': {
    'zh-CN': 'Logistic 回归的结局变量只能取 0 或 1',
    'en-US': 'The outcome of a logistic regression must be 0 or 1',
  },
  'research.stats.twoLevels': {
    'zh-CN': '分组变量 {column} 必须恰好有两个取值，实际有 {found} 个',
    'en-US': 'The group column {column} must have exactly two values; it has {found}',
  },
  'research.stats.logRankGroups': {
    'zh-CN': 'Log-rank 检验至少需要两个组',
    'en-US': 'The log-rank test needs at least two groups',
  },
  'research.notPi': {
    'zh-CN': '只有课题负责人或拥有课题编辑权限的用户可以调整成员',
    'en-US': 'Only the principal investigator or a user allowed to edit subjects may change the members',
  },
  'multiCenter.off': {
    'zh-CN': '多中心模式未开启',
    'en-US': 'Multi-center mode is not switched on',
  },
  'multiCenter.notLead': {
    'zh-CN': '只有牵头中心可以执行此操作',
    'en-US': 'Only the leading center may do this',
  },
  'multiCenter.illegalMove': {
    'zh-CN': '主题状态不能从“{from}”变为“{to}”；当前允许：{allowed}',
    'en-US': 'A topic cannot move from "{from}" to "{to}"; allowed now: {allowed}',
  },
  'multiCenter.frozen': {
    'zh-CN': '主题状态为“{status}”，病例数据已冻结；只能在以下状态录入：{allowed}',
    'en-US':
      'The topic is "{status}" and its case data is frozen; cases can be entered while it is: {allowed}',
  },
  'multiCenter.noInvitation': {
    'zh-CN': '没有待处理的这项邀请',
    'en-US': 'There is no pending invitation to this topic',
  },
  'multiCenter.alreadyCenter': {
    'zh-CN': '该中心已受邀或已参与本主题',
    'en-US': 'This center is already invited to or taking part in the topic',
  },
  'multiCenter.leadStays': {
    'zh-CN': '牵头中心不能退出自己牵头的主题',
    'en-US': 'The leading center cannot leave the topic it leads',
  },
  'multiCenter.minAboveMax': { 'zh-CN': 'min 不能大于 max', 'en-US': 'min must not exceed max' },
  'multiCenter.inviteOne': {
    'zh-CN': '请选择一个中心或填写中心代码（二选一）',
    'en-US': 'give either appId or appCode',
  },
  'task.notStatus': { 'zh-CN': '不是有效的任务状态', 'en-US': 'not a task status' },
  'admin.lastAdministrator': {
    'zh-CN': '操作被拒绝：应用中须至少保留一位启用的管理员（其角色拥有“角色管理-编辑”权限）',
    'en-US':
      'Refused: the app must keep at least one enabled administrator (a user whose role may edit roles)',
  },
  'admin.roleNameTaken': { 'zh-CN': '角色名“{name}”已存在', 'en-US': 'A role named "{name}" already exists' },
  'admin.userNameTaken': {
    'zh-CN': '用户名“{name}”已被使用',
    'en-US': 'The user name "{name}" is already taken',
  },
  'admin.diseaseTaken': {
    'zh-CN': '疾病“{name}”已存在',
    'en-US': 'A disease named "{name}" already exists',
  },
  'admin.unknownRole': {
    'zh-CN': '角色 {id} 不存在或不属于当前应用',
    'en-US': 'Role {id} does not exist or does not belong to this app',
  },
  'admin.unknownUser': {
    'zh-CN': '用户 {id} 不存在或不属于当前应用',
    'en-US': 'User {id} does not exist or is not a member of this app',
  },
  'admin.unknownApp': {
    'zh-CN': '应用 {id} 不存在或您不是其成员',
    'en-US': 'App {id} does not exist or you are not a member of it',
  },
  'admin.unknownMenu': { 'zh-CN': '菜单 {id} 不存在', 'en-US': 'Menu {id} does not exist' },
  'admin.unknownFunction': { 'zh-CN': '功能 {id} 不存在', 'en-US': 'Function {id} does not exist' },
  'admin.otherApp': {
    'zh-CN': '只能管理当前应用（{id}）的数据',
    'en-US': 'You can only administer the current app ({id})',
  },
  'admin.sharedUser': {
    'zh-CN': '用户“{name}”也属于您不是成员的其他应用，其账号只能由所有这些应用的管理员修改',
    'en-US':
      'User "{name}" also belongs to an app you are not a member of; only an administrator of all its apps may change the account',
  },
  'admin.passwordRequired': {
    'zh-CN': '新用户必须设置初始密码',
    'en-US': 'A new user needs an initial password',
  },
  'crf.invalid': {
    'zh-CN': '提交未通过校验，共 {count} 处问题：{first}',
    'en-US': 'The submission failed validation with {count} issue(s): {first}',
  },
  'crf.locked': {
    'zh-CN': '记录已锁定，解锁后才能修改',
    'en-US': 'The record is locked; unlock it to change it',
  },
  'crf.reasonRequired': {
    'zh-CN': '修改已提交的记录须填写修改原因：{items}',
    'en-US': 'Changing a submitted record needs a reason: {items}',
  },
  'crf.stale': {
    'zh-CN': '记录已被他人修改（当前版本 {revision}），请刷新后重试',
    'en-US': 'Someone else changed the record (now revision {revision}); reload and try again',
  },
  'crf.notPublished': {
    'zh-CN': '表单尚未发布，不能填写',
    'en-US': 'The form has no published version yet',
  },
  'crf.archived': { 'zh-CN': '表单已归档', 'en-US': 'The form is archived' },
  'crf.lockedDelete': {
    'zh-CN': '记录已锁定，不能删除；请先解锁',
    'en-US': 'The record is locked and cannot be deleted; unlock it first',
  },
  'crf.deleted': {
    'zh-CN': '记录已删除，不能再修改',
    'en-US': 'The record has been deleted and can no longer be changed',
  },
  'crf.problems': {
    'zh-CN': '表单有 {count} 处问题，不能发布：{first}',
    'en-US': 'The form has {count} problem(s) and cannot be published: {first}',
  },
  'crf.badStatus': {
    'zh-CN': '记录状态为 {status}，不能执行此操作',
    'en-US': 'The record is {status}; this action is not possible',
  },
  'notice.jobSucceeded': { 'zh-CN': '{kind}已完成', 'en-US': '{kind} finished' },
  'notice.jobFailed': { 'zh-CN': '{kind}失败', 'en-US': '{kind} failed' },
  'server.error': {
    'zh-CN': '服务器出错了，请稍后重试（请求编号 {requestId}）',
    'en-US': 'The server made an error, please retry later (request id {requestId})',
  },
  'server.busy': {
    'zh-CN': '服务器正忙于读取其他文件，请 {seconds} 秒后重试',
    'en-US': 'The server is busy reading other files; please retry in {seconds} s',
  },
} as const;

export type MessageKey = keyof typeof catalogue;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogue, key);
}

/** Formats a message of the catalogue; `{name}` placeholders take the given values. */
export function formatMessage(key: MessageKey, locale: Locale, values: Record<string, string | number> = {}) {
  const text: string = catalogue[key][locale] ?? catalogue[key][DEFAULT_LOCALE];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Picks zh-CN or en-US from an Accept-Language header; Chinese is the default. */
export function pickLocale(acceptLanguage: string | undefined | null): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const first = acceptLanguage.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en-US' : DEFAULT_LOCALE;
}

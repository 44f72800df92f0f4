#!/usr/bin/env python3
"""Builds the shipped CDISC files (sdtmig-3.4.json, cdashig-2.1.json, ct.json) from public sources.

Not run by the product; run by hand when the sources change (see SOURCES.md):
  python3 build-cdisc.py <SDTMIG Variables.csv> <SDTMIG Datasets.csv> <sdtm-pedia terminology/core dir>
Only the eight domains CRDP models (DM AE CM MH LB VS EX DS) and the codelists their variables
name are kept; definitions of terms are left out (the screens show value and decode).
"""
import csv, json, os, re, sys

DOMAINS = ['DM', 'AE', 'CM', 'MH', 'LB', 'VS', 'EX', 'DS']
# Variables whose local values are coded by the coding area (apps/server/src/coding kinds).
CODING = {('AE', 'AEDECOD'): 'disease', ('MH', 'MHDECOD'): 'disease', ('CM', 'CMDECOD'): 'drug',
          ('EX', 'EXTRT'): 'drug', ('LB', 'LBLOINC'): 'lab'}

# CDASHIG v2.1 collection fields of the same domains: names, cores (HR highly recommended, R/C
# recommended/conditional, O optional) and SDTMIG targets as published by CDISC; labels are ours.
CDASH = {
  'DM': [('STUDYID','Study Identifier','Char','HR','STUDYID',None),('SITEID','Study Site Identifier','Char','HR','SITEID',None),
         ('SUBJID','Subject Identifier for the Study','Char','HR','SUBJID',None),('BRTHDAT','Birth Date','Char','R/C','BRTHDTC',None),
         ('BRTHYY','Birth Year','Num','R/C','BRTHDTC',None),('AGE','Age','Num','R/C','AGE',None),('AGEU','Age Unit','Char','R/C','AGEU','C66781'),
         ('SEX','Sex','Char','HR','SEX','C66731'),('ETHNIC','Ethnicity','Char','HR','ETHNIC','C66790'),('RACE','Race','Char','HR','RACE','C74457'),
         ('COUNTRY','Country','Char','O','COUNTRY',None)],
  'AE': [('AEYN','Any Adverse Events','Char','O',None,'C66742'),('AESPID','Sponsor-Defined Identifier','Char','O','AESPID',None),
         ('AETERM','Reported Term for the Adverse Event','Char','HR','AETERM',None),('AESTDAT','Start Date','Char','HR','AESTDTC',None),
         ('AESTTIM','Start Time','Char','R/C','AESTDTC',None),('AEONGO','Ongoing','Char','O','AEENRTPT','C66742'),
         ('AEENDAT','End Date','Char','HR','AEENDTC',None),('AESEV','Severity','Char','R/C','AESEV','C66769'),
         ('AESER','Serious Event','Char','HR','AESER','C66742'),('AEREL','Causality','Char','HR','AEREL',None),
         ('AEACN','Action Taken with Study Treatment','Char','HR','AEACN','C66767'),('AEOUT','Outcome','Char','R/C','AEOUT','C66768')],
  'CM': [('CMYN','Any Medications','Char','O',None,'C66742'),('CMTRT','Medication Name','Char','HR','CMTRT',None),
         ('CMINDC','Indication','Char','R/C','CMINDC',None),('CMDSTXT','Dose per Administration','Char','R/C','CMDOSE',None),
         ('CMDOSU','Dose Unit','Char','R/C','CMDOSU','C71620'),('CMDOSFRQ','Frequency','Char','R/C','CMDOSFRQ','C71113'),
         ('CMROUTE','Route','Char','R/C','CMROUTE','C66729'),('CMSTDAT','Start Date','Char','R/C','CMSTDTC',None),
         ('CMENDAT','End Date','Char','R/C','CMENDTC',None),('CMONGO','Ongoing','Char','R/C','CMENRTPT','C66742')],
  'MH': [('MHYN','Any Medical History','Char','O',None,'C66742'),('MHTERM','Reported Term for the Medical History','Char','HR','MHTERM',None),
         ('MHCAT','Category','Char','O','MHCAT',None),('MHSTDAT','Start Date','Char','R/C','MHSTDTC',None),
         ('MHENDAT','End Date','Char','R/C','MHENDTC',None),('MHONGO','Ongoing','Char','R/C','MHENRTPT','C66742')],
  'LB': [('LBPERF','Lab Performed','Char','HR',None,'C66742'),('LBDAT','Collection Date','Char','HR','LBDTC',None),
         ('LBTIM','Collection Time','Char','R/C','LBDTC',None),('LBTESTCD','Test Code','Char','HR','LBTESTCD','C65047'),
         ('LBTEST','Test Name','Char','HR','LBTEST','C67154'),('LBORRES','Result','Char','HR','LBORRES',None),
         ('LBORRESU','Original Units','Char','R/C','LBORRESU','C71620'),('LBORNRLO','Normal Range Lower Limit','Char','R/C','LBORNRLO',None),
         ('LBORNRHI','Normal Range Upper Limit','Char','R/C','LBORNRHI',None),('LBNRIND','Reference Range Indicator','Char','O','LBNRIND','C78736'),
         ('LBSPEC','Specimen Type','Char','O','LBSPEC','C78734')],
  'VS': [('VSPERF','Vital Signs Performed','Char','HR',None,'C66742'),('VSDAT','Date','Char','HR','VSDTC',None),
         ('VSTIM','Time','Char','R/C','VSDTC',None),('VSTESTCD','Test Code','Char','HR','VSTESTCD','C66741'),
         ('VSTEST','Test Name','Char','HR','VSTEST','C67153'),('VSORRES','Result','Char','HR','VSORRES',None),
         ('VSORRESU','Original Units','Char','HR','VSORRESU','C66770'),('VSPOS','Position','Char','R/C','VSPOS','C71148'),
         ('VSLOC','Location','Char','O','VSLOC','C74456')],
  'EX': [('EXTRT','Name of Treatment','Char','HR','EXTRT',None),('EXSTDAT','Start Date','Char','HR','EXSTDTC',None),
         ('EXENDAT','End Date','Char','HR','EXENDTC',None),('EXDOSE','Dose','Num','R/C','EXDOSE',None),
         ('EXDOSU','Dose Unit','Char','R/C','EXDOSU','C71620'),('EXDOSFRM','Dose Form','Char','R/C','EXDOSFRM','C66726'),
         ('EXDOSFRQ','Frequency','Char','R/C','EXDOSFRQ','C71113'),('EXROUTE','Route','Char','R/C','EXROUTE','C66729')],
  'DS': [('DSCAT','Category for Disposition Event','Char','R/C','DSCAT','C74558'),('DSTERM','Reported Term for the Disposition Event','Char','HR','DSTERM',None),
         ('DSDECOD','Standardized Disposition Term','Char','HR','DSDECOD','C66727'),('DSSTDAT','Disposition Event Date','Char','HR','DSSTDTC',None)],
}

def parse_ct(folder):
    out = {}
    head = re.compile(r'^## (.+) \((C\d+)\)\s*$')
    for f in sorted(os.listdir(folder)):
        cur = None
        for line in open(os.path.join(folder, f), encoding='utf-8'):
            m = head.match(line)
            if m:
                cur = out.setdefault(m.group(2), {'name': m.group(1), 'extensible': None, 'terms': []})
                continue
            if cur is None: continue
            if line.startswith('Extensible:'):
                cur['extensible'] = line.split(':', 1)[1].strip() == 'Yes'
            elif re.match(r'^\| C\d+ \|', line):
                cells = [c.strip() for c in line.strip().strip('|').split('|')]
                if len(cells) >= 3 and not any(t[0] == cells[0] and t[1] == cells[1] for t in cur['terms']):
                    # The decode shown beside a value: its first synonym in words (Unknown, not U or UNK).
                    syns = [x.strip() for x in cells[2].split(';') if x.strip() and x.strip() != cells[1]]
                    worded = [x for x in syns if any(ch.islower() for ch in x)]
                    cur['terms'].append([cells[0], cells[1], (worded or syns or [''])[0]])
    return out

def main(vars_csv, ds_csv, ct_dir, out_dir):
    ds = {r['Dataset Name']: r for r in csv.DictReader(open(ds_csv, encoding='utf-8-sig'))}
    rows = [r for r in csv.DictReader(open(vars_csv, encoding='utf-8-sig')) if r['Dataset Name'] in DOMAINS]
    ct = parse_ct(ct_dir)
    used = set()
    domains = []
    for d in DOMAINS:
        vs = []
        for r in sorted((r for r in rows if r['Dataset Name'] == d), key=lambda r: int(r['Variable Order'])):
            cl = (r['CDISC CT Codelist Code(s)'].split(';')[0].strip() or None)
            if cl and cl not in ct: cl = None
            if cl: used.add(cl)
            vs.append({'name': r['Variable Name'], 'label': r['Variable Label'], 'type': r['Type'], 'role': r['Role'],
                       'core': r['Core'], 'codelist': cl, 'codingKind': CODING.get((d, r['Variable Name']))})
        domains.append({'name': d, 'label': ds[d]['Dataset Label'], 'class': ds[d]['Class'], 'structure': ds[d]['Structure'],
                        'variables': vs})
    cdash = []
    for d in DOMAINS:
        vs = []
        for (n, label, t, core, target, cl) in CDASH[d]:
            if cl: used.add(cl)
            vs.append({'name': n, 'label': label, 'type': t, 'role': '', 'core': core, 'codelist': cl, 'sdtmTarget': target,
                       'codingKind': CODING.get((d, target or ''))})
        cdash.append({'name': d, 'label': ds[d]['Dataset Label'], 'class': ds[d]['Class'], 'structure': '', 'variables': vs})
    meta = lambda std, ver, src: {'standard': std, 'version': ver, 'source': src}
    json.dump({**meta('SDTMIG', '3.4', 'CDISC SDTMIG v3.4 variable metadata (CDISC Library export) via rubentalstra/Trial-Submission-Studio'),
               'domains': domains}, open(os.path.join(out_dir, 'sdtmig-3.4.json'), 'w'), ensure_ascii=False, separators=(',', ':'))
    json.dump({**meta('CDASHIG', '2.1', 'CDASHIG v2.1 collection fields of the eight domains, transcribed by CRDP (names, cores, SDTMIG targets)'),
               'domains': cdash}, open(os.path.join(out_dir, 'cdashig-2.1.json'), 'w'), ensure_ascii=False, separators=(',', ':'))
    missing = sorted(used - set(ct))
    if missing: sys.exit(f'codelists not found: {missing}')
    json.dump({'standard': 'SDTM CT', 'version': '2022-09-30', 'source': 'hakupao/sdtm-pedia knowledge_base/terminology (CC BY 4.0)',
               'codelists': {c: ct[c] for c in sorted(used)}}, open(os.path.join(out_dir, 'ct.json'), 'w'), ensure_ascii=False, separators=(',', ':'))
    print(len(rows), 'SDTM variables;', sum(len(v) for v in CDASH.values()), 'CDASH fields;', len(used), 'codelists;',
          sum(len(ct[c]['terms']) for c in used), 'terms')

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3], os.path.dirname(os.path.abspath(__file__)))

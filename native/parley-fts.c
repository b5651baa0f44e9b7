/*
** parley_bm25(): FTS5's bm25() with each phrase's document frequency given by the caller.
**
** FTS5's own bm25() counts, once per query, every row of the whole index holding each phrase
** before it scores the first match (about 80 ns a row: 13 ms for a word in one chunk of six at
** a million chunks), for the phrase's IDF. Parley keeps those counts already (its term
** statistics, core/retrieval/plan.ts), so it passes them as arguments and nothing is counted:
**
**   SELECT rowid, parley_bm25(chunks_fts, df0, df1, ...) FROM chunks_fts WHERE chunks_fts MATCH ?
**
** with one count a phrase, in the order the phrases appear in the match expression. Everything
** else is FTS5's bm25 as SQLite writes it (fts5_aux.c), the IDF included: ln((N - df + 0.5) /
** (df + 0.5)), at least 1e-6, N the index's row count; k1 1.2, b 0.75, the average row length from
** the index's totals, the row's length from its size record, every column weighted 1. Given the
** counts FTS5 would make, the scores are FTS5's to the last bit (test/unit/retrieval/ranking-extension.test.ts).
**
** Each row's length is remembered per connection (SizeCache below). FTS5 reads it from its
** docsize table with one lookup per scored row, which was most of a ranked query's time (the
** FTS5 queries of the bench's questions at 1M chunks: 1.86 s reading each length, 0.74 s
** remembered; README, *Remembered row lengths*). Parley never changes a chunk's text and never
** reuses a chunk id (migration 050), so a row's length, once read, holds while the row exists.
**
** Built by scripts/build-native.mjs against the SQLite that better-sqlite3 ships; loaded into each
** connection by main/db/connection.ts. Public domain, like the code it follows.
*/
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <math.h>
#include <string.h>
#include "fts5.h"

/* Per query: the phrase count, the index's row count and average row length, and room for one row's phrase frequencies. */
typedef struct {
  int nPhrase;
  sqlite3_int64 nRow;
  double avgdl;
  double *aFreq;
} QueryData;

static int queryData(const Fts5ExtensionApi *pApi, Fts5Context *pFts, QueryData **pp){
  int rc = SQLITE_OK;
  QueryData *p = (QueryData*)pApi->xGetAuxdata(pFts, 0);
  if( p==0 ){
    sqlite3_int64 nRow = 0, nToken = 0;
    int nPhrase = pApi->xPhraseCount(pFts);
    sqlite3_int64 nByte = sizeof(QueryData) + nPhrase*sizeof(double);
    p = (QueryData*)sqlite3_malloc64(nByte);
    if( p==0 ) return SQLITE_NOMEM;
    memset(p, 0, (size_t)nByte);
    p->nPhrase = nPhrase;
    p->aFreq = (double*)&p[1];
    rc = pApi->xRowCount(pFts, &nRow);
    if( rc==SQLITE_OK ) rc = pApi->xColumnTotalSize(pFts, -1, &nToken);
    p->nRow = nRow;
    if( rc==SQLITE_OK ) p->avgdl = nRow>0 ? (double)nToken / (double)nRow : 1.0;
    if( rc==SQLITE_OK ){
      rc = pApi->xSetAuxdata(pFts, p, sqlite3_free); /* frees p itself when it fails */
    }else{
      sqlite3_free(p);
    }
    if( rc!=SQLITE_OK ) p = 0;
  }
  *pp = p;
  return rc;
}

/*
** Row lengths, per connection: pages of PAGE_IDS consecutive rowids, each a uint16 a rowid (its
** length + 1; 0 = not read yet), found through an open-addressing table keyed by rowid / PAGE_IDS.
** Chunk ids are dense within a knowledge base, so a million chunks take about 2 MB. A length of
** 65,535 tokens or more is not remembered (read each time), and past MAX_PAGES pages (32 MB)
** nothing more is: those rows are read each time, as FTS5 reads them.
*/
#define PAGE_BITS 12
#define PAGE_IDS (1<<PAGE_BITS)
#define MAX_PAGES 4096

typedef struct { sqlite3_int64 key; unsigned short *aLen; } Page;
typedef struct { Page *aSlot; int nSlot; int nPage; } SizeCache;

static unsigned int slotOf(sqlite3_int64 key, int nSlot){
  return (unsigned int)(((sqlite3_uint64)key * 0x9E3779B97F4A7C15ULL) >> 32) & (unsigned int)(nSlot-1);
}

static unsigned short *findPage(const SizeCache *c, sqlite3_int64 key){
  unsigned int i;
  if( c->nSlot==0 ) return 0;
  for(i=slotOf(key, c->nSlot); c->aSlot[i].aLen; i=(i+1) & (unsigned int)(c->nSlot-1)){
    if( c->aSlot[i].key==key ) return c->aSlot[i].aLen;
  }
  return 0;
}

/* A new, empty page for `key` (not in the cache yet); 0 when out of memory or past MAX_PAGES. */
static unsigned short *addPage(SizeCache *c, sqlite3_int64 key){
  unsigned int i;
  unsigned short *aLen;
  if( c->nPage>=MAX_PAGES ) return 0;
  if( (c->nPage+1)*2 > c->nSlot ){
    /* Keep the table at most half full: twice the slots, every page placed again. */
    int nNew = c->nSlot ? c->nSlot*2 : 64, j;
    Page *aNew = (Page*)sqlite3_malloc64(sizeof(Page) * (sqlite3_uint64)nNew);
    if( aNew==0 ) return 0;
    memset(aNew, 0, sizeof(Page) * (size_t)nNew);
    for(j=0; j<c->nSlot; j++){
      if( c->aSlot[j].aLen==0 ) continue;
      for(i=slotOf(c->aSlot[j].key, nNew); aNew[i].aLen; i=(i+1) & (unsigned int)(nNew-1)){}
      aNew[i] = c->aSlot[j];
    }
    sqlite3_free(c->aSlot);
    c->aSlot = aNew;
    c->nSlot = nNew;
  }
  aLen = (unsigned short*)sqlite3_malloc64(sizeof(unsigned short) * PAGE_IDS);
  if( aLen==0 ) return 0;
  memset(aLen, 0, sizeof(unsigned short) * PAGE_IDS);
  for(i=slotOf(key, c->nSlot); c->aSlot[i].aLen; i=(i+1) & (unsigned int)(c->nSlot-1)){}
  c->aSlot[i].key = key;
  c->aSlot[i].aLen = aLen;
  c->nPage++;
  return aLen;
}

static void freeSizeCache(void *p){
  SizeCache *c = (SizeCache*)p;
  int i;
  for(i=0; i<c->nSlot; i++) sqlite3_free(c->aSlot[i].aLen);
  sqlite3_free(c->aSlot);
  sqlite3_free(c);
}

/* The current row's length in tokens, all columns: remembered, or read by FTS5 and remembered. */
static int rowLength(const Fts5ExtensionApi *pApi, Fts5Context *pFts, int *pnTok){
  SizeCache *c = (SizeCache*)pApi->xUserData(pFts);
  sqlite3_int64 rowid = pApi->xRowid(pFts);
  sqlite3_int64 key = rowid >> PAGE_BITS;
  int at = (int)(rowid & (PAGE_IDS-1));
  unsigned short *aLen = findPage(c, key);
  int rc;
  if( aLen && aLen[at] ){
    *pnTok = aLen[at] - 1;
    return SQLITE_OK;
  }
  rc = pApi->xColumnSize(pFts, -1, pnTok);
  if( rc==SQLITE_OK && *pnTok>=0 && *pnTok<65535 ){
    if( aLen==0 ) aLen = addPage(c, key);
    if( aLen ) aLen[at] = (unsigned short)(*pnTok + 1);
  }
  return rc;
}

static void parleyBm25(
  const Fts5ExtensionApi *pApi, Fts5Context *pFts, sqlite3_context *pCtx, int nVal, sqlite3_value **apVal
){
  const double k1 = 1.2;
  const double b = 0.75;
  QueryData *p = 0;
  int rc, i, nInst = 0, nTok = 0;
  double score = 0.0;

  rc = queryData(pApi, pFts, &p);
  if( rc!=SQLITE_OK ){
    sqlite3_result_error_code(pCtx, rc);
    return;
  }
  if( nVal!=p->nPhrase ){
    sqlite3_result_error(pCtx, "parley_bm25: give one document frequency for each phrase of the query", -1);
    return;
  }
  memset(p->aFreq, 0, sizeof(double) * p->nPhrase);
  rc = pApi->xInstCount(pFts, &nInst);
  for(i=0; rc==SQLITE_OK && i<nInst; i++){
    int ip, ic, io;
    rc = pApi->xInst(pFts, i, &ip, &ic, &io);
    if( rc==SQLITE_OK && ip>=0 && ip<p->nPhrase ) p->aFreq[ip] += 1.0;
  }
  if( rc==SQLITE_OK ) rc = rowLength(pApi, pFts, &nTok);
  if( rc!=SQLITE_OK ){
    sqlite3_result_error_code(pCtx, rc);
    return;
  }
  for(i=0; i<p->nPhrase; i++){
    /* The IDF as fts5Bm25GetData() computes it from its own count. */
    sqlite3_int64 nHit = sqlite3_value_int64(apVal[i]);
    double idf = log( (p->nRow - nHit + 0.5) / (nHit + 0.5) );
    double f = p->aFreq[i];
    if( idf<=0.0 ) idf = 1e-6;
    score += idf * ( (f * (k1 + 1.0)) / (f + k1 * (1 - b + b * (double)nTok / p->avgdl)) );
  }
  sqlite3_result_double(pCtx, -1.0 * score);
}

/* The entry point SQLite derives from the file name (parley_fts → sqlite3_parleyfts_init). */
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_parleyfts_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi){
  sqlite3_stmt *pStmt = 0;
  fts5_api *pFts5 = 0;
  int rc;
  SQLITE_EXTENSION_INIT2(pApi);
  (void)pzErrMsg;
  /* FTS5 hands out its API through a pointer bound to "SELECT fts5(?1)" (SQLite's fts5.html). */
  rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &pStmt, 0);
  if( rc==SQLITE_OK ){
    sqlite3_bind_pointer(pStmt, 1, (void*)&pFts5, "fts5_api_ptr", 0);
    sqlite3_step(pStmt);
    rc = sqlite3_finalize(pStmt);
  }
  if( rc==SQLITE_OK && (pFts5==0 || pFts5->iVersion<2) ) rc = SQLITE_ERROR;
  if( rc==SQLITE_OK ){
    /* This connection's own row lengths: a connection is used by one thread at a time. */
    SizeCache *pCache = (SizeCache*)sqlite3_malloc64(sizeof(SizeCache));
    if( pCache==0 ) return SQLITE_NOMEM;
    memset(pCache, 0, sizeof(SizeCache));
    rc = pFts5->xCreateFunction(pFts5, "parley_bm25", (void*)pCache, parleyBm25, freeSizeCache);
    if( rc!=SQLITE_OK ) freeSizeCache(pCache); /* FTS5 owns it only once the function is made */
  }
  return rc;
}

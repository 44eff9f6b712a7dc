/* Minimal recursive IDA* + Manhattan for the 4x4 (blank-first goal), the C baseline of bench_search.py.
   Build: gcc -O3 -march=native -o /tmp/ida bench/ida_manhattan.c; run: /tmp/ida <16 tiles>. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int st[16], md[16][16], nb[16][5], th, nxt; static long long gen;
static int dfs(int b, int parent, int h, int g){
  for(int k=0; nb[b][k]>=0; k++){int c=nb[b][k]; if(c==parent) continue; int t=st[c];
    int nh=h+md[t][b]-md[t][c]; gen++; int f=g+1+nh; if(f>th){ if(f<nxt) nxt=f; continue;}
    st[b]=t; st[c]=0; if(nh==0) return 1; if(dfs(c,b,nh,g+1)) return 1; st[c]=t; st[b]=0;}
  return 0;}
int main(int argc,char**argv){ int tiles[16]; for(int i=0;i<16;i++) tiles[i]=atoi(argv[i+1]);
 for(int t=0;t<16;t++)for(int c=0;c<16;c++) md[t][c]= t? abs(t/4-c/4)+abs(t%4-c%4):0;
 for(int c=0;c<16;c++){int k=0,r=c/4,cc=c%4; if(r>0)nb[c][k++]=c-4; if(r<3)nb[c][k++]=c+4; if(cc>0)nb[c][k++]=c-1; if(cc<3)nb[c][k++]=c+1; nb[c][k]=-1;}
 int h=0,b=0; for(int i=0;i<16;i++){st[i]=tiles[i]; h+=md[tiles[i]][i]; if(!tiles[i]) b=i;}
 struct timespec a,z; clock_gettime(CLOCK_MONOTONIC,&a);
 th=h; while(1){nxt=1<<30; if(dfs(b,-1,h,0)) break; th=nxt;}
 clock_gettime(CLOCK_MONOTONIC,&z); double s=(z.tv_sec-a.tv_sec)+(z.tv_nsec-a.tv_nsec)*1e-9;
 printf("len %d gen %lld %.1f M/s %.2fs\n", th, gen, gen/s/1e6, s);}

// options: -cl-std=CL1.2
// expect: .global .align 4 .b8 lookup
__constant int lookup[8] = {1, 1, 2, 3, 5, 8, 13, 21};
typedef struct {
    float x, y;
    int tag;
} point;
int helper(int v) {
    return lookup[v & 7] * 2;
}
__kernel void structs(__global point *pts, point p0, int2 v) {
    size_t i = get_global_id(0);
    pts[i].x += p0.x + v.x;
    pts[i].y += p0.y + v.y;
    pts[i].tag = helper((int)i);
}

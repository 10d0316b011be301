/* Found through -I tests/d/cpp/inc by tst.include_path.d. */
#define FROM_INC "from -I"

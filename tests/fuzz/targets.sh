# shellcheck shell=bash disable=SC2034  # sourced: run.sh and long_run.sh use these names
# The fuzz targets, their seed corpora and input-size bounds, for run.sh and long_run.sh (sourced).
default_targets=(ptx_parser yaml golden_set number_format descriptor)
seeds=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/corpus
# libFuzzer dictionaries (tests/fuzz/dict/<target>.dict): -dict=FILE where a target has one.
dict_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/dict
dict_of() { [ -f "$dict_dir/$1.dict" ] && echo "-dict=$dict_dir/$1.dict"; }
declare -A max_len=([ptx_parser]=8192 [yaml]=8192 [golden_set]=65536 [number_format]=256 [descriptor]=16)
